"""The shared indexes every visitor downloads stay small: a long option value is shortened in
/browse/'s index and never reaches the compare index."""

import copy
import json

from generator.pages.browse import OPTION_VALUE_CHARS, browse_index, shortened
from generator.pages.compare_index import compare_index

MEGABYTE = 1 << 20


def test_shortened_keeps_short_values_and_marks_cut_ones():
    assert shortened("ON") == "ON"
    assert shortened("x" * OPTION_VALUE_CHARS) == "x" * OPTION_VALUE_CHARS
    cut = shortened("y" * MEGABYTE)
    assert len(cut) == OPTION_VALUE_CHARS and cut.endswith("…")


def test_a_megabyte_option_value_stays_out_of_the_indexes(fixture_runs):
    """(The schema refuses such a value in a run file; the indexes do not rely on it.)"""
    runs = [copy.deepcopy(doc) for _, doc in fixture_runs]
    huge = "z" * MEGABYTE
    sysbench = [run for run in runs if run["workload"]["tool"] == "sysbench"]
    before = len(json.dumps(browse_index(runs)))
    sysbench[0]["server"]["my_cnf_options"]["innodb_huge"] = huge
    index = json.dumps(browse_index(runs))
    assert huge[:OPTION_VALUE_CHARS] not in index
    [record] = [r for r in json.loads(index)["runs"] if r["id"] == sysbench[0]["id"]]
    [option] = [o for o in record["options"] if o.startswith("innodb_huge=")]
    assert option == "innodb_huge=" + shortened(huge)
    assert len(index) < before + 200
    assert huge[:OPTION_VALUE_CHARS] not in json.dumps(compare_index(sysbench))
