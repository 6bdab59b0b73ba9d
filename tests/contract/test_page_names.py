"""The one rule for names that become a path segment (contract/_page_names.py): which names
share a page, which are refused and why, and run or campaign ids refused on validation with the
file and JSON path. tests/site/test_page_names.py checks the segments against a real Hugo."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import contract
from contract._page_names import MAX_SEGMENT_BYTES, RESERVED
from tests.helpers.paths import FIXTURE_RUNS

RUN_ID = "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1"


@pytest.mark.parametrize(
    ("names", "segment"),
    [
        # Unicode case, as Go lowercases it: dotted capital I is i, capital sigma the small one
        (["İntel Xeon", "intel xeon", "INTEL XEON"], "intel-xeon"),
        (["İSTANBUL-2", "istanbul-2"], "istanbul-2"),
        (["\u03a3IGMA", "\u03c3igma"], "\u03c3igma"),
        (["\u03a3\u03a6\u03a3 lab", "\u03c3\u03c6\u03c3 LAB"], "\u03c3\u03c6\u03c3-lab"),
        # punctuation Hugo drops, spaces it makes hyphens
        (["db (1)", "DB 1", "db-1", "db-(1)"], "db-1"),
        (["rack [7] · east", "RACK {7} · EAST"], "rack-7--east"),
        (["Kelvin \u212a9", "kelvin k9"], "kelvin-k9"),  # the Kelvin sign lowercases to k
        (["a\u00a0b", "a b"], "a-b"),  # no-break space
    ],
)
def test_names_hugo_puts_on_one_page_have_one_segment(names, segment):
    assert {contract.page_segment(name) for name in names} == {segment}


@pytest.mark.parametrize(
    "names",
    [
        ["db-1", "db-2", "db_1", "db.1", "db+1", "db1"],
        ["mariadb-10.11.6", "mariadb-10.11.6+deb12u1", "mariadb-10.116"],
        ["i\u0307ntel", "intel"],  # a combining dot Hugo keeps: two pages, told apart
    ],
)
def test_near_names_keep_pages_of_their_own(names):
    assert len({contract.page_segment(name) for name in names}) == len(names)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../x", "'/' is a path separator"),
        ("vm · ../../posts/x · 2 cores", "'/' is a path separator"),
        ("a/b", "'/' is a path separator"),
        ("..\\..\\x", "'\\\\' is a path separator"),
        ("%2e%2e%2fx", "'%' is a URL escape"),
        ("%41b", "'%' is a URL escape"),
        ("x#top", "'#' is a URL fragment"),
        ("C# box", "'#' is a URL fragment"),
    ],
)
def test_names_that_would_land_elsewhere_are_refused(name, why):
    with pytest.raises(contract.PageNameError, match=re.escape(why)):
        contract.page_segment(name)


@pytest.mark.parametrize(
    "name",
    [
        *sorted(RESERVED),
        "INDEX.XML",
        "Index.Html",
        "PAGE",
        "Page",
        "_Index",
        ".",
        "..",
        ".hidden",
        ".Hidden",
        "trailing.",
        "a..",
    ],
)
def test_list_page_names_and_dot_names_are_refused(name):
    with pytest.raises(contract.PageNameError, match=r"list page's own|starts or ends with a dot"):
        contract.page_segment(name)


@pytest.mark.parametrize(
    ("name", "folded"),
    [
        ("\u03c3\u03c6\u03c2", "\u03c3\u03c6\u03c3"),  # a final sigma
        ("\u03a3\u03a6\u03c2", "\u03c3\u03c6\u03c3"),
        ("\ufb01le", "file"),  # a ligature
        ("\uff44\uff42\uff11", "db1"),  # fullwidth
        ("straße", "strasse"),
        ("STRAẞE", "strasse"),
        ("cafe\u0301", "café"),  # decomposed: looks like the composed one
    ],
)
def test_spellings_unicode_folds_to_another_are_refused(name, folded):
    with pytest.raises(contract.PageNameError, match=f"Unicode folds to '{folded}'"):
        contract.page_segment(name)


@pytest.mark.parametrize("name", ["()", "·", "!?", "\u2122"])
def test_a_name_of_punctuation_only_is_refused(name):
    with pytest.raises(contract.PageNameError, match="no letter or digit"):
        contract.page_segment(name)


@pytest.mark.parametrize("name", ["a\tb", "a\nb", "vm\x1cx", "a\u200bb", "\ue000x"])
def test_control_and_invisible_characters_are_refused(name):
    with pytest.raises(
        contract.PageNameError, match="a control, invisible or unassigned character"
    ):
        contract.page_segment(name)


def test_the_length_limit_is_in_bytes_of_the_segment():
    assert contract.page_segment("a" * MAX_SEGMENT_BYTES) == "a" * MAX_SEGMENT_BYTES
    assert contract.page_segment("(" + "a" * MAX_SEGMENT_BYTES + ")")  # dropped: not counted
    over = [
        "a" * (MAX_SEGMENT_BYTES + 1),
        "é" * (MAX_SEGMENT_BYTES // 2 + 1),  # two bytes each
        "h" * 253 + " · Intel Xeon · 2 cores · 8 GiB · 3f2a1b",  # a 253-character hostname
    ]
    for name in over:
        with pytest.raises(contract.PageNameError, match=f"over the limit of {MAX_SEGMENT_BYTES}"):
            contract.page_segment(name)


@pytest.fixture
def run_file(tmp_path):
    runs_dir = tmp_path / "data" / "runs"
    runs_dir.mkdir(parents=True)
    return Path(shutil.copy(FIXTURE_RUNS / "runs" / f"{RUN_ID}.json", runs_dir))


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("$.id", "index.html"),
        ("$.id", "index.xml"),
        ("$.id", "page"),
        ("$.id", "index"),
        ("$.campaign.id", "page"),
        ("$.campaign.id", "index.xml"),
    ],
)
def test_ids_that_name_a_list_page_are_refused_on_validation(run_file, path, value):
    doc = json.loads(run_file.read_text())
    if path == "$.id":
        doc["id"] = value
        run_file = run_file.rename(run_file.with_name(f"{value}.json"))
    else:
        doc["campaign"]["id"] = value
    run_file.write_text(json.dumps(doc))
    _, problems = contract.load_run(run_file)
    why = f"{value!r} becomes the path segment {value!r}, the name of a list page's own file"
    assert [str(problem) for problem in problems] == [
        f"{run_file}: {path}: cannot name a page: {why} or folder"
    ]
