"""The committed data's compare index, split into a catalogue and campaign files, loses nothing."""

from __future__ import annotations

from contract import is_ibench
from generator.pages.compare_index import compare_index
from tests.helpers.compare_split import split_and_reassembled


def test_the_committed_index_reassembles_from_its_parts(committed_runs):
    index = compare_index([run for _, run in committed_runs if not is_ibench(run)])
    assert len(index["campaigns"]) > 1
    assert split_and_reassembled(index) == index
