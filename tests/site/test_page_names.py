"""Names that become paths, through a real Hugo build: near names (`db-1`, `db-2`, `db_1`,
`DB.1`, Unicode case, punctuation Hugo drops) each get their page at the path
contract.page_segment predicts, and hostile names are refused, each naming its file, before
Hugo runs."""

from __future__ import annotations

from pathlib import Path

import pytest

import contract
import generator
from generator.hugo.load import load_runs
from generator.pages.run_terms import run_terms
from tests.helpers.page_name_runs import edited_runs, on_host
from tests.helpers.page_text import page_words
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site


def _fingerprint(digit: str) -> str:
    return digit * 64


def _versioned(version: str, fingerprint: str, **host: str):
    def edit(doc: dict) -> None:
        on_host(fingerprint, **host)(doc)
        doc["server"]["version"] = version

    return edit


# One host each, named so that Hugo's rule decides every character: hyphen, underscore, dot,
# case, a dotted capital I, a capital sigma, a trademark sign, brackets and commas it drops.
NEAR_NAMES = [
    on_host(_fingerprint("1"), label="db-1"),
    on_host(_fingerprint("2"), label="db-2"),
    on_host(_fingerprint("3"), label="db_1"),
    # a recorded CPU model is a fact: its path characters read as spaces, its page stays put
    on_host(_fingerprint("4"), cpu_model="\u0130ntel Xeon (Sapphire Rapids) w/ ../../posts/x"),
    on_host(_fingerprint("5"), cpu_model="\u03a3IGMA\u2122 9 [Zen 4]"),
    _versioned("10.11.19+deb12u1", _fingerprint("6"), label="DB.1 (rack 7)"),
]


@pytest.fixture(scope="module")
def near_names_site(tmp_path_factory) -> tuple[Path, list[contract.RunDocument]]:
    root = tmp_path_factory.mktemp("near-names")
    edited_runs(root, NEAR_NAMES)
    runs = [run.doc for run in load_runs([root / "data"])]
    return build_with_article(root, "No figures.", [root / "data"]), runs


@pytest.mark.parametrize("taxonomy", ["hosts", "versions", "workloads", "engines"])
def test_every_term_has_its_page_at_the_predicted_path(near_names_site, taxonomy):
    public, runs = near_names_site
    terms = {run_terms(run)[taxonomy] for run in runs}
    predicted = {contract.page_segment(term): term for term in terms}
    assert len(predicted) == len(terms)  # near names, not one page
    published = {path.parent.name for path in (public / taxonomy).glob("*/index.html")}
    assert published == set(predicted)
    for segment, term in predicted.items():
        assert term in page_words(public / taxonomy / segment / "index.html")


def test_near_host_names_are_six_pages(near_names_site):
    public, runs = near_names_site
    hosts = sorted(path.parent.name for path in (public / "hosts").glob("*/index.html"))
    assert len(hosts) == len(runs) == 6
    assert "vm--intel-xeon-sapphire-rapids-w-..-..-posts-x--2-cores--24-gib--444444" in hosts
    assert not (public / "posts" / "x").exists()
    assert "vm--\u03c3igma-9-zen-4--2-cores--24-gib--555555" in hosts


def test_run_and_campaign_pages_are_at_their_segments(near_names_site):
    public, runs = near_names_site
    for run in runs:
        assert (public / "runs" / contract.page_segment(run["id"]) / "index.html").is_file()
        campaign = contract.page_segment(run["campaign"]["id"])
        assert (public / "campaigns" / campaign / "index.html").is_file()


def _id(run_id: str):
    def edit(doc: dict) -> None:
        doc["id"] = run_id

    return edit


# Each class of hostile name, and a variation of it.
HOSTILE = [
    (on_host(_fingerprint("a"), cpu_model="\ufb01re \uff38eon"), "$.host"),
    (on_host(_fingerprint("b"), cpu_model="\u03a3\u03a6\u03c2"), "$.host"),
    (_id("index.xml"), "$.id"),
    (_id("page"), "$.id"),
    (on_host(_fingerprint("c"), hostname="h" * 253), "$.host"),
    (lambda doc: doc["workload"].update(name="index.html"), "$.workload.name"),
]


def test_hostile_names_are_refused_before_hugo_runs(tmp_path):
    files = edited_runs(tmp_path, [edit for edit, _ in HOSTILE])
    with pytest.raises(generator.InvalidData) as raised:
        build_with_article(tmp_path, "No figures.", [tmp_path / "data"])
    found = sorted((problem.file, problem.path) for problem in raised.value.problems)
    assert found == sorted(
        (str(file), where) for file, (_, where) in zip(files, HOSTILE, strict=True)
    )
    assert all("cannot name a page" in problem.message for problem in raised.value.problems)
    assert not (tmp_path / "public").exists() and not (tmp_path / "build").exists()
