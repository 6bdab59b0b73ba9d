"""Hostile and broken run files are refused before Hugo sees them, each problem naming the file
and the JSON path (or the line and column of a file that is not JSON)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import contract
import generator
from generator.hugo.build import generate
from tests.helpers.paths import FIXTURE_RUNS

RUN_ID = "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1"
OTHER_ID = "binlog-sync-policies-20261123-133014.sync-1.oltp-rw.p1"


@pytest.fixture
def run_file(tmp_path):
    """A copy of a real run document in a data dir of its own."""
    runs_dir = tmp_path / "data" / "runs"
    runs_dir.mkdir(parents=True)
    return Path(shutil.copy(FIXTURE_RUNS / "runs" / f"{RUN_ID}.json", runs_dir))


def _problems(path) -> list[str]:
    doc, problems = contract.load_run(path)
    assert (doc is None) == bool(problems)
    return [f"{p.path}: {p.message}" for p in problems if p.file == str(path)]


def _edited(run_file, edit, ensure_ascii=True):
    doc = json.loads(run_file.read_text())
    edit(doc)
    run_file.write_text(json.dumps(doc, ensure_ascii=ensure_ascii))
    return _problems(run_file)


@pytest.mark.parametrize(
    ("token", "path"),
    [
        ("NaN", "$.steps[0].tps"),
        ("Infinity", "$.steps[0].tps"),
        ("-Infinity", "$.steps[0].tps"),
        ("1e999", "$.steps[0].tps"),
    ],
)
def test_non_finite_numbers_are_refused_with_their_path(run_file, token, path):
    text = run_file.read_text()
    value = json.loads(text)["steps"][0]["tps"]
    run_file.write_text(text.replace(f'"tps": {value}', f'"tps": {token}', 1))
    assert _problems(run_file) == [f"{path}: {token} is not a finite number (JSON has none)"]


@pytest.mark.parametrize(
    ("where", "value", "bound"),
    [
        (("steps", 0, "tps"), 1e308, "maximum of 1000000000000.0"),
        (("steps", 0, "latency_ms", "p95"), 1e13, "maximum of 1000000000000.0"),
        (("steps", 0, "series", "tps", 3), 1e300, "maximum of 1000000000000.0"),
        (("steps", 0, "events"), 10**20, "maximum of 9007199254740991"),
        (("steps", 0, "events"), 10**400, "a number of 401 characters, over the limit of 32"),
        (("host", "ram_bytes"), 2**53, "maximum of 9007199254740991"),
        (("steps", 0, "server_status_delta", "Innodb_checkpoint_age"), -1e300, "minimum of -"),
    ],
)
def test_numbers_beyond_their_finite_bound_are_refused(run_file, where, value, bound):
    def edit(doc):
        node = doc
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = value

    path = "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in where)
    (problem,) = _edited(run_file, edit)
    assert problem.startswith(f"{path}: ") and bound in problem
    assert len(problem) < 200  # a 400-digit number is shortened, not printed whole


@pytest.mark.parametrize(
    ("section", "key", "value"),
    [
        ("host", "hostname", "a/b"),
        ("host", "hostname", "../../runs/x"),
        ("host", "hostname", "db 1"),
        ("host", "hostname", "vm\u200b"),
        ("server", "version", "10.11/../../posts"),
        ("server", "version", "10.11.19\u202e"),
    ],
)
def test_page_names_hold_no_path_or_invisible_characters(run_file, section, key, value):
    (problem,) = _edited(run_file, lambda doc: doc[section].update({key: value}))
    assert problem.startswith(f"$.{section}.{key}: ")
    assert "only" in problem and "page" in problem  # the schema's reason is quoted


@pytest.mark.parametrize("ensure_ascii", [True, False])  # escaped or literal in the file
@pytest.mark.parametrize(
    ("where", "char"),
    [
        (("campaign", "title"), "\u202e"),
        (("host", "cpu_model"), "\u2066"),
        (("server", "my_cnf"), "\u202e"),
        (("reproduce", "harness_command"), "\u200b"),
        (("workload", "options", "tables"), "\ufeff"),
    ],
)
def test_bidi_and_zero_width_characters_are_refused_in_labels(run_file, where, char, ensure_ascii):
    def edit(doc):
        node = doc
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = f"23.5 {char}GiB"

    problems = _edited(run_file, edit, ensure_ascii)
    code = f"U+{ord(char):04X}"
    assert problems == [f"$.{'.'.join(where)}: invisible character {code} (bidi or zero-width)"]


def test_a_key_with_a_zero_width_character_is_refused(run_file):
    (problem,) = _edited(
        run_file, lambda doc: doc["server"]["variables"].update({"max_connections\u200b": "1"})
    )
    assert problem.startswith("$.server.variables.max_connections\u200b: invisible character")


def test_free_prose_may_hold_bidi_characters(run_file):
    def edit(doc):
        doc["campaign"]["description"] = "\u05e9\u05dc\u05d5\u05dd \u202b(RTL)\u202c"
        doc["status_reason"] = "\u2067right to left\u2069"

    assert _edited(run_file, edit) == []


def test_a_truncated_file_names_line_and_column(run_file):
    cut = run_file.read_text()[:20_000]
    run_file.write_text(cut)
    (problem,) = _problems(run_file)
    where = re.fullmatch(r"\$: not JSON: .+ at line (\d+) column (\d+)", problem)
    assert where, problem
    assert 1 < int(where[1]) <= cut.count("\n") + 1 and int(where[2]) >= 1


def test_a_file_that_is_not_utf8_names_the_line(run_file):
    raw = run_file.read_bytes()
    at = raw.index(b'"hostname"')
    run_file.write_bytes(raw[:at] + b"\xff" + raw[at:])
    line = raw.count(b"\n", 0, at) + 1
    assert _problems(run_file) == [f"$: not UTF-8: byte 0xff on line {line}"]


def test_hosts_that_differ_only_by_case_are_refused_naming_both_files(tmp_path, run_file):
    """One machine (one fingerprint) labelled "Lab 1" by one campaign and "LAB 1" by another."""
    other = shutil.copy(FIXTURE_RUNS / "runs" / f"{OTHER_ID}.json", run_file.parent)
    for path, label in ((run_file, "LAB 1"), (Path(other), "Lab 1")):
        doc = json.loads(path.read_text())
        doc["host"].update(fingerprint="ab" * 32, label=label)
        path.write_text(json.dumps(doc))
    with pytest.raises(generator.InvalidData) as raised:
        generate([run_file.parent.parent], tmp_path / "build")
    (problem,) = raised.value.problems
    first, second = sorted([str(run_file), str(other)])
    assert problem.file == second and problem.path == "$.host"
    assert first in problem.message and "/hosts/" in problem.message
    assert not (tmp_path / "build").exists()  # refused before anything was written
