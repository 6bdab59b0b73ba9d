"""Taxonomy terms that cannot name a page, or whose different spellings would share one, are
refused before anything is written, each problem naming the file, the JSON path and, for two
terms on one page, both files: by the build and by `mybench validate` alike."""

from __future__ import annotations

import subprocess
import sys

import pytest

import generator
from generator.hugo.build import generate
from tests.helpers.page_name_runs import edited_runs, on_host

ONE_MACHINE = "ab" * 32  # one fingerprint: the terms alone tell the hosts apart


def _version(version: str):
    return lambda doc: doc["server"].update(version=version)


def _workload(name: str):
    return lambda doc: doc["workload"].update(name=name)


@pytest.mark.parametrize(
    ("first", "second", "where", "page"),
    [
        # host labels differing by punctuation Hugo drops or spaces it makes hyphens
        (on_host(ONE_MACHINE, label="Lab (1)"), on_host(ONE_MACHINE, label="lab 1"),
         "$.host", "/hosts/lab-1--ababab/"),
        (on_host(ONE_MACHINE, label="DB-1"), on_host(ONE_MACHINE, label="db 1"),
         "$.host", "/hosts/db-1--ababab/"),
        # CPU models (a host without a label) differing by Unicode case
        (on_host(ONE_MACHINE, cpu_model="İntel Xeon"), on_host(ONE_MACHINE, cpu_model="intel Xeon"),
         "$.host", "/hosts/vm--intel-xeon--2-cores--24-gib--ababab/"),
        (on_host(ONE_MACHINE, cpu_model="\u03a3IGMA 9"), on_host(ONE_MACHINE, cpu_model="\u03c3igma 9"),
         "$.host", "/hosts/vm--\u03c3igma-9--2-cores--24-gib--ababab/"),
        # versions differing by case
        (_version("10.11.6-MariaDB"), _version("10.11.6-mariadb"),
         "$.server.version", "/versions/mariadb-10.11.6-mariadb/"),
        (_version("10.11.6_A"), _version("10.11.6_a"),
         "$.server.version", "/versions/mariadb-10.11.6_a/"),
    ],
)  # fmt: skip
def test_two_terms_on_one_page_are_refused_naming_both_files(tmp_path, first, second, where, page):
    first_file, second_file = edited_runs(tmp_path, [first, second])
    with pytest.raises(generator.InvalidData) as raised:
        generate([tmp_path / "data"], tmp_path / "build")
    (problem,) = raised.value.problems
    assert (problem.file, problem.path) == (str(second_file), where)
    assert f"({first_file}) would share the page {page}" in problem.message
    assert not (tmp_path / "build").exists()  # refused before anything was written


@pytest.mark.parametrize(
    ("edit", "where", "why"),
    [
        (on_host("cd" * 32, cpu_model="\u03a3\u03c6\u03c2"), "$.host", "Unicode folds to"),
        (on_host("cd" * 32, cpu_model="\u03a3\u03a6\u03c2"), "$.host", "Unicode folds to"),
        (on_host("cd" * 32, hostname="h" * 253), "$.host", "over the limit of 250"),
        (on_host("cd" * 32, hostname="h" * 120, cpu_model="x" * 120), "$.host", "over the limit"),
        (_workload("page"), "$.workload.name", "list page's own file or folder"),
        (_workload("index.xml"), "$.workload.name", "list page's own file or folder"),
    ],
)
def test_terms_that_cannot_name_a_page_are_refused_with_file_and_path(tmp_path, edit, where, why):
    (run_file,) = edited_runs(tmp_path, [edit])
    with pytest.raises(generator.InvalidData) as raised:
        generate([tmp_path / "data"], tmp_path / "build")
    (problem,) = raised.value.problems
    assert (problem.file, problem.path) == (str(run_file), where)
    assert problem.message.startswith("cannot name a page under /") and why in problem.message
    assert len(str(problem)) < 600  # a 253-character hostname is shortened, not printed whole
    assert not (tmp_path / "build").exists()


def test_validate_prints_one_line_per_problem_naming_both_files(tmp_path):
    edits = [
        on_host(ONE_MACHINE, label="Lab (1)"),
        on_host(ONE_MACHINE, label="lab 1"),
        on_host("cd" * 32, cpu_model="\u03a3\u03c6\u03c2"),
    ]
    first, second, third = edited_runs(tmp_path, edits)
    result = subprocess.run(
        [sys.executable, "-m", "cli", "validate", str(tmp_path / "data")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 2, lines
    assert lines[1].startswith(f"{third}: $.host: cannot name a page under /hosts/: ")
    assert lines[0] == (
        f"{second}: $.host: 'lab 1 · ababab' and 'Lab (1) · ababab' ({first}) would share the "
        "page /hosts/lab-1--ababab/"
    )
