"""A results directory's known-changes.toml (contract/_known_changes.py): read when present,
every entry checked against its schema, and a file that cannot be read named with the field
at fault."""

from __future__ import annotations

from pathlib import Path

import contract

VALID = """
[[known]]
campaign = "nightly"
since = "nightly-20261201-021700"
reason = "sync_binlog = 1 from this night on"

[[known]]
campaign = "nightly"
since = "nightly-20261215-021700"
reason = "kernel 6.12 on bench-2"
host = "bench-2"
metric = "tps"
"""


def _write(tmp_path: Path, text: str) -> Path:
    (tmp_path / contract.KNOWN_CHANGES_FILE).write_text(text)
    return tmp_path


def test_no_file_is_no_known_change(tmp_path):
    assert contract.load_known_changes(tmp_path) == ([], [])


def test_each_entry_is_read_with_where_it_came_from(tmp_path):
    known, problems = contract.load_known_changes(_write(tmp_path, VALID))
    assert problems == []
    path = str(tmp_path / contract.KNOWN_CHANGES_FILE)
    assert [change["source"] for change in known] == [(path, "$.known[0]"), (path, "$.known[1]")]
    assert known[1]["host"] == "bench-2" and "host" not in known[0]


def test_a_field_the_schema_does_not_know_is_named(tmp_path):
    text = VALID.replace('metric = "tps"', 'metrc = "tps"')
    known, [problem] = contract.load_known_changes(_write(tmp_path, text))
    assert known == [] and problem.path == "$.known[1]" and "metrc" in problem.message


def test_a_missing_reason_is_named(tmp_path):
    text = VALID.replace('reason = "sync_binlog = 1 from this night on"\n', "")
    _, [problem] = contract.load_known_changes(_write(tmp_path, text))
    assert problem.path == "$.known[0]" and "reason" in problem.message


def test_text_that_is_not_toml_names_the_file(tmp_path):
    _, [problem] = contract.load_known_changes(_write(tmp_path, "[[known]\n"))
    assert problem.file.endswith(contract.KNOWN_CHANGES_FILE) and problem.message.startswith(
        "not TOML"
    )


def test_a_reason_with_a_bidi_override_is_refused(tmp_path):
    text = VALID.replace("kernel 6.12", "kernel \u202e6.12")
    _, [problem] = contract.load_known_changes(_write(tmp_path, text))
    assert problem.path == "$.known[1].reason" and "U+202E" in problem.message
