"""Build origins: recorded ones as the harness wrote them, derived ones for older runs, and the
statement a comparison of builds of different origin gets."""

from __future__ import annotations

import copy

from generator.analysis.build_origin import build_comparison, build_of

CALLAGHAN = "callaghan-10-11-vs-11-4-20261122-045700"
BINLOG = "binlog-sync-policies-20261123-133014"
DEBIAN = {
    "origin": "package",
    "package": "mariadb-server-core",
    "package_version": "1:10.11.19-0+deb12u1",
    "distribution": "Debian GNU/Linux 12 (bookworm)",
    "reported": {"version_ssl_library": "OpenSSL 3.0.19 27 Jan 2026"},
}


def _campaign(fixture_runs, campaign_id):
    return [run for _, run in fixture_runs if run["campaign"]["id"] == campaign_id]


def test_older_runs_get_a_derived_origin_from_their_paths(fixture_runs):
    builds = {
        run["server"]["version"]: build_of(run) for run in _campaign(fixture_runs, CALLAGHAN)
    }
    debian, tarball = builds["10.11.19"], builds["11.4.5"]
    assert debian["derived"] and tarball["derived"]
    assert debian["origin"] == "package"
    assert debian["description"] == "a Debian 12 package built with OpenSSL 3.0.19 27 Jan 2026"
    assert tarball["origin"] == "tarball"
    assert tarball["description"] == (
        "MariaDB's generic binaries (.servers/mariadb-11.4.5) built with WolfSSL 5.7.6"
    )


def test_builds_of_different_origin_are_stated_once_each(fixture_runs):
    comparison = build_comparison(_campaign(fixture_runs, CALLAGHAN))
    assert comparison is not None and comparison["derived"] is True
    assert [(b["versions"], b["origin"]) for b in comparison["builds"]] == [
        (["10.11.19"], "package"),
        (["11.4.5"], "tarball"),
    ]


def test_one_build_origin_gets_no_statement(fixture_runs):
    assert build_comparison(_campaign(fixture_runs, BINLOG)) is None


def test_a_recorded_build_is_used_as_recorded(fixture_runs):
    runs = copy.deepcopy(_campaign(fixture_runs, CALLAGHAN))
    for run in runs:
        run["server"]["build"] = (
            DEBIAN
            if run["server"]["version"] == "10.11.19"
            else {"origin": "tarball", "basedir": "/opt/m", "reported": {}}
        )
    debian = build_of(runs[0] if runs[0]["server"]["version"] == "10.11.19" else runs[-1])
    assert debian["derived"] is False
    assert debian["description"] == (
        "a Debian GNU/Linux 12 (bookworm) package (mariadb-server-core 1:10.11.19-0+deb12u1)"
        " built with OpenSSL 3.0.19 27 Jan 2026"
    )
    comparison = build_comparison(runs)
    assert comparison is not None and comparison["derived"] is False
    for run in runs:  # the same package on every server: same origin, nothing to say
        run["server"]["build"] = DEBIAN
    assert build_comparison(runs) is None


def test_one_tarball_in_two_clones_is_one_build_named_from_servers_on(fixture_runs):
    runs = copy.deepcopy(_campaign(fixture_runs, CALLAGHAN))
    for index, run in enumerate(runs):
        clone = "/work/camp" if index % 2 else "/home/me/bench"
        run["server"]["build"] = {
            "origin": "tarball",
            "basedir": f"{clone}/.servers/mariadb-11.4.5",
            "reported": {"version_ssl_library": "WolfSSL 5.7.6"},
        }
    assert build_comparison(runs) is None
    assert build_of(runs[0])["description"] == (
        "MariaDB's generic binaries (.servers/mariadb-11.4.5) built with WolfSSL 5.7.6"
    )
