"""Numbers as text (contract/_numbers.py) and numbers in run files: what reads as a figure, a
whole number or a JSON number, and that `mybench validate` refuses what the generator cannot
draw, with the file and JSON path on one line."""

from __future__ import annotations

import json
import reprlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import contract
from contract._strict_json import parse_strict
from contract._validate import SCHEMA_PATH
from tests.helpers.hostile_numbers import ARABIC_FIVE, ARABIC_THREE_POINT_FIVE, FULL_WIDTH_TWELVE
from tests.helpers.paths import FIXTURE_RUNS

RUN_ID = "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1"


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0.0), ("12", 12.0), ("0.5", 0.5), ("263.43", 263.43), ("0.000001", 1e-6),
     ("1000000000000", 1e12), ("00.10", 0.1)],
)  # fmt: skip
def test_ascii_decimal_figures_read(text, value):
    assert contract.figure(text) == value


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (ARABIC_FIVE, "not a decimal number"),  # float() reads 5.0
        (ARABIC_THREE_POINT_FIVE, "not a decimal number"),
        (FULL_WIDTH_TWELVE, "not a decimal number"),  # float() reads 12.0
        ("1" + FULL_WIDTH_TWELVE[1], "not a decimal number"),
        ("1_000", "not a decimal number"),  # float() reads 1000.0
        ("1_0.5", "not a decimal number"),
        ("²", "not a decimal number"),  # passes isdigit(), float() refuses it
        ("5²", "not a decimal number"),
        ("1e-400", "not a decimal number"),  # float() reads 0.0
        ("0.1e-399", "not a decimal number"),
        ("5e-324", "not a decimal number"),
        ("4.9E-324", "not a decimal number"),
        ("NaN", "not a decimal number"),
        ("-nan", "not a decimal number"),
        ("inf", "not a decimal number"),
        ("Infinity", "not a decimal number"),
        ("-3", "not a decimal number"),
        ("+3", "not a decimal number"),
        (" 3", "not a decimal number"),
        ("3\n", "not a decimal number"),
        ("1,000", "not a decimal number"),
        ("0x10", "not a decimal number"),
        ("", "not a decimal number"),
        ("0.0000001", "under 1e-06"),  # decimal, but nearer to 0 than a figure may be
        ("0." + "0" * 20 + "1", "under 1e-06"),
        ("1000000000001", "over 1e+12"),
        ("9" * 20, "over 1e+12"),
        ("9" * 5000, "5,000 characters, over the limit of 32"),
        ("0." + "0" * 4000 + "1", "4,003 characters, over the limit of 32"),
    ],
)
def test_anything_else_is_refused_saying_why(text, why):
    with pytest.raises(contract.NotAFigure) as refused:
        contract.figure(text)
    assert why in str(refused.value)


def test_a_count_may_be_larger_than_a_figure():
    assert contract.figure(str(contract.LARGEST_COUNT), contract.LARGEST_COUNT) == 2**53 - 1
    with pytest.raises(contract.NotAFigure):
        contract.figure(str(contract.LARGEST_COUNT + 1), contract.LARGEST_COUNT)


def test_the_bounds_are_the_run_schemas():
    schema = json.loads(SCHEMA_PATH.read_text())
    defs = schema["$defs"]
    assert contract.SMALLEST_FIGURE == 1e-6 and "nearer to 0 than 10⁻⁶" in schema["description"]
    assert defs["nonneg"]["maximum"] == contract.LARGEST_FIGURE
    assert defs["series"]["items"]["maximum"] == contract.LARGEST_FIGURE
    assert defs["step"]["properties"]["events"]["maximum"] == contract.LARGEST_COUNT


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0), ("536870912", 536870912), ("9" * 32, int("9" * 32)),
     ("²", None), ("5²", None), ("¹²⁸", None), (ARABIC_FIVE, None), (ARABIC_THREE_POINT_FIVE, None), (FULL_WIDTH_TWELVE, None),
     ("1_000", None), ("-1", None), ("+1", None), (" 1", None), ("1.0", None), ("", None),
     ("9" * 33, None), ("9" * 5000, None)],
)  # fmt: skip
def test_a_whole_number_is_ascii_digits_of_bounded_length(text, value):
    assert contract.whole_number(text) == value


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("9" * 5000, "a number of 5,000 characters, over the limit of 32"),  # int() refuses
        ("-" + "9" * 4301, "a number of 4,302 characters, over the limit of 32"),
        ("0." + "0" * 40 + "1", "a number of 43 characters, over the limit of 32"),
        ("1" + "0" * 40 + ".5", "a number of 43 characters, over the limit of 32"),
        ("1e-400", "1e-400 is nearer to 0 than a double holds (it would read as 0)"),
        ("-2.5E-999", "-2.5E-999 is nearer to 0 than a double holds (it would read as 0)"),
        ("1e999", "1e999 is not a finite number (JSON has none)"),
        ("NaN", "NaN is not a finite number (JSON has none)"),
        ("5e-324", "5e-324 is nearer to 0 than 10⁻⁶ and not 0"),
        ("-9.9e-7", "-9.9e-7 is nearer to 0 than 10⁻⁶ and not 0"),
    ],
)
def test_json_numbers_that_cannot_be_read_as_written_are_named_by_path(token, why):
    raw = f'{{"steps": [{{"tps": 1.5, "series": [0, {token}]}}]}}'.encode()
    value, [(path, message)] = parse_strict(raw)
    assert (value, path) == (None, "$.steps[0].series[1]") and message.startswith(why)


@pytest.mark.parametrize("token", ["0", "0.0", "-0.0", "0e5", "0.000e-400", "1e-6", "-1E-6"])
def test_zero_however_written_and_the_smallest_figures_parse(token):
    value, problems = parse_strict(f'{{"a": {token}}}'.encode())
    assert problems == [] and value == {"a": float(token)}


@pytest.fixture
def run_file(tmp_path) -> Path:
    """A copy of a real run document in a data dir of its own."""
    runs_dir = tmp_path / "data" / "runs"
    runs_dir.mkdir(parents=True)
    return Path(shutil.copy(FIXTURE_RUNS / "runs" / f"{RUN_ID}.json", runs_dir))


def _edit(run_file: Path, where: tuple, value: object) -> None:
    doc = json.loads(run_file.read_text())
    node = doc
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    run_file.write_text(json.dumps(doc))


def _validate(data_dir: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cli", "validate", str(data_dir)],
        capture_output=True,
        text=True,
        check=False,
    )


# (where in the document, a value): each a figure nearer to 0 than 1e-6 but not 0.
TINY = [
    (("steps", 0, "tps"), 5e-324),  # the smallest subnormal
    (("steps", 1, "tps"), 2.2e-308),  # a subnormal's neighbour, the smallest normal
    (("steps", 0, "latency_ms", "avg"), 1e-7),
    (("steps", 0, "series", "p95_ms", 3), 5e-324),
    (("steps", 0, "qps", "read"), 9.99e-7),
    (("steps", 0, "server_status_delta", "Innodb_checkpoint_age"), -5e-324),  # a signed one
    (("steps", 0, "os", "cpu_user_pct"), 1e-300),
]


@pytest.mark.parametrize(("where", "value"), TINY)
def test_a_figure_nearer_to_0_than_1e_6_is_refused_with_its_path(run_file, where, value):
    _edit(run_file, where, value)
    _, problems = contract.load_run(run_file)
    path = "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in where)
    assert [(p.path, p.message.split(" is ")[0]) for p in problems] == [(path, repr(value))]
    assert "nearer to 0 than 10⁻⁶ and not 0" in problems[0].message


@pytest.mark.parametrize("value", [0, 0.0, 1e-6, 0.000123, 1e12])
def test_0_and_the_bounds_themselves_are_valid(run_file, value):
    _edit(run_file, ("steps", 0, "tps"), value)
    _edit(run_file, ("steps", 0, "server_status_delta", "Innodb_checkpoint_age"), -value)
    assert contract.load_run(run_file)[1] == []


def test_mybench_validate_prints_one_line_per_number_it_refuses(run_file, tmp_path):
    text = run_file.read_text()
    doc = json.loads(text)
    events, tps = doc["steps"][0]["events"], doc["steps"][1]["tps"]
    text = text.replace(f'"events": {events}', f'"events": {"9" * 5000}', 1)
    text = text.replace(f'"tps": {tps}', '"tps": 5e-324', 1)
    run_file.write_text(text)
    result = _validate(tmp_path / "data")
    # Both are found while parsing, each on its own line.
    assert result.returncode == 1 and "Traceback" not in result.stderr
    first, second = result.stdout.splitlines()
    assert first == (
        f"{run_file}: $.steps[0].events: a number of 5,000 characters, over the limit of 32"
    )
    assert second.startswith(f"{run_file}: $.steps[1].tps: 5e-324 is nearer to 0 than 10⁻⁶")
    run_file.write_text(text.replace("9" * 5000, str(events)))
    result = _validate(tmp_path / "data")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    (line,) = result.stdout.splitlines()
    assert line.startswith(f"{run_file}: $.steps[1].tps: 5e-324 is nearer to 0 than 10⁻⁶")


def _reproduce(run_file: Path, results: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "reproduce",
            str(run_file),
            "--results",
            str(results),
        ],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("written", "why"),
    [(f'"events": {"9" * 5000}', "a number of 5,000 characters, over the limit of 32"),
     ('"events": 1e-400', "1e-400 is nearer to 0 than a double holds (it would read as 0)")],
)  # fmt: skip
def test_reproduce_reads_a_document_as_strictly_as_validate(run_file, tmp_path, written, why):
    text = run_file.read_text()
    events = json.loads(text)["steps"][0]["events"]
    run_file.write_text(text.replace(f'"events": {events}', written, 1))
    result = _reproduce(run_file, tmp_path / "results")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip() == (
        f"error: {run_file}: not a JSON run document: $.steps[0].events: {why}"
    )
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize("tables", ["2\u00b2", ARABIC_FIVE, FULL_WIDTH_TWELVE, "1_0", "9" * 5000])
def test_reproduce_reads_a_recorded_count_as_ascii_digits_only(run_file, tmp_path, tables):
    # int() refused the superscript and the 5,000 digits with a traceback, and read the
    # other scripts' digits and 1_0 as a table count: a stranger's document ran with it.
    _edit(run_file, ("workload", "options", "tables"), tables)
    result = _reproduce(run_file, tmp_path / "results")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip().startswith(
        f"error: workload.options.tables {reprlib.repr(tables)}: not a whole number in ASCII"
    )
    assert not (tmp_path / "results").exists()
