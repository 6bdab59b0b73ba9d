"""Build origin and provenance as the built pages state them, from the fixture runs (which
predate both records: their origins are derived, their commits were read at write time), and
what the pages say of the plain settings their harness recorded as redacted."""

from __future__ import annotations

import pytest

from tests.helpers.page_text import page_words
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site

CALLAGHAN = "callaghan-10-11-vs-11-4-20261122-045700"
BINLOG = "binlog-sync-policies-20261123-133014"
STATEMENT = (
    "The compared builds differ in origin: 10.11.19 is a Debian 12 package built with OpenSSL"
    " 3.0.19 27 Jan 2026; 11.4.5 is MariaDB's generic binaries"
    " (.servers/mariadb-11.4.5) built with WolfSSL 5.7.6: part of the difference may"
    " be the build, not the version. (Derived from what older runs recorded"
)


# An article showing the cross-build campaign three times, after a same-origin campaign, an
# escaped shortcode and a value: the statement comes once, before the first of the three.
ARTICLE = "\n\n".join(
    (
        f'{{{{< ratios campaign="{BINLOG}" workload="oltp-rw" >}}}}',
        f'Written as {{{{</* ratios campaign="{CALLAGHAN}" */>}}}} in a guide.',
        f'{{{{< value campaign="{BINLOG}" workload="oltp-rw" variant="sync-1" threads="1" >}}}}',
        f'{{{{< suite campaign="{CALLAGHAN}" table="relative" >}}}}',
        f'{{{{< ratios campaign="{CALLAGHAN}" workload="point-query-r100" >}}}}',
        f'{{{{< chart campaign="{CALLAGHAN}" workload="point-query-r100" fig="tps" >}}}}',
    )
)


@pytest.fixture(scope="module")
def public(tmp_path_factory):
    return build_with_article(tmp_path_factory.mktemp("provenance"), ARTICLE, [FIXTURE_RUNS])


def test_differing_origins_are_stated_on_the_campaign_page_and_in_the_shortcode(public):
    assert STATEMENT in page_words(public / "campaigns" / CALLAGHAN / "index.html")
    assert STATEMENT in page_words(public / "posts" / "probe" / "index.html")


def test_an_article_states_differing_origins_once_before_the_campaign_s_first_table(public):
    text = page_words(public / "posts" / "probe" / "index.html")
    assert text.count("The compared builds differ in origin") == 1
    assert text.index(STATEMENT) < text.index("Relative QPS")


def test_one_origin_gets_no_statement(public):
    assert "builds differ in origin" not in page_words(
        public / "campaigns" / BINLOG / "index.html"
    )


def test_an_older_run_says_its_commit_may_not_be_the_code_that_ran(public):
    (page,) = (public / "runs").glob(f"{CALLAGHAN}.mariadb-11-4.base.point-query-r100/index.html")
    text = page_words(page)
    assert (
        "its commit was read when the document was written, after the run, and may not be the"
        " code that ran" in text
    )
    assert (
        "build MariaDB's generic binaries (.servers/mariadb-11.4.5) built with"
        " WolfSSL 5.7.6 (derived from the recorded basedir, binary and version comment)" in text
    )


def test_plain_settings_an_earlier_harness_redacted_say_so(public):
    (page,) = (public / "runs").glob(f"{CALLAGHAN}.mariadb-11-4.base.point-query-r100/index.html")
    text = page_words(page)
    note = "(a plain setting, not a secret: redacted by an earlier harness)"
    for name in ("secure_auth", "disconnect_on_expired_password"):
        assert f"{name} <redacted> {note}" in text
    assert text.count(note) == 2  # report_password, wsrep_sst_auth: empty, nothing to say
