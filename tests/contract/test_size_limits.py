"""Size limits of the run schema: every string, list and map is bounded, a document over a limit
is refused with its file, JSON path and the limit, and real documents stay well inside them."""

import copy
import json
from collections.abc import Callable, Iterator

import pytest

import contract
from contract._validate import SCHEMA_PATH
from tests.helpers.paths import FIXTURE_RUNS, REPO

SYSBENCH = (
    FIXTURE_RUNS / "runs" / "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1.json"
)
IBENCH = FIXTURE_RUNS / "runs" / "ibench-performance-schema-20261123-143014.ps-off.ibench.p1.json"
MEGABYTE = 1 << 20


def _unbounded(node: object, where: str = "$") -> Iterator[str]:
    """Schema locations of a string, list or free-keyed map without a size keyword (a pattern,
    an enum or a fixed set of property names bounds a value too)."""
    if isinstance(node, list):
        for index, child in enumerate(node):
            yield from _unbounded(child, f"{where}/{index}")
        return
    if not isinstance(node, dict):
        return
    kinds = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
    if "string" in kinds and not {"maxLength", "pattern", "enum"} & node.keys():
        yield where
    if "array" in kinds and "maxItems" not in node:
        yield where
    free_keys = isinstance(node.get("additionalProperties"), dict)
    if free_keys and not {"maxProperties", "propertyNames"} & node.keys():
        yield where
    for key, child in node.items():
        yield from _unbounded(child, f"{where}/{key}")


def test_every_string_list_and_map_has_a_limit():
    assert list(_unbounded(json.loads(SCHEMA_PATH.read_text()))) == []


def _step_copies(doc: dict, count: int) -> None:
    # Without the optional per-step maps, which would only make validation slower.
    bare = {
        k: v for k, v in doc["steps"][0].items() if k not in ("monitor", "server_status_delta")
    }
    doc["steps"] = [{**bare, "threads": level} for level in range(1, count + 1)]


def _long_series(doc: dict, count: int) -> None:
    for name in doc["steps"][0]["series"]:
        doc["steps"][0]["series"][name] = [1.0] * count


def _long_monitor(doc: dict, count: int) -> None:
    for name in doc["steps"][0]["monitor"]["series"]:
        doc["steps"][0]["monitor"]["series"][name] = [1.0] * count


def _many(mapping: dict, count: int, value: object) -> None:
    mapping.update({f"extra_{index}": value for index in range(count - len(mapping))})


OVER_THE_LIMIT: list[tuple[str, Callable[[dict], None], str, str]] = [
    ("steps per run", lambda d: _step_copies(d, 4097), "$.steps", "4,097 items"),
    ("points per series", lambda d: _long_series(d, 100_001), "$.steps[0].series.t", "100,000"),
    (
        "points per monitored metric",
        lambda d: _long_monitor(d, 100_001),
        "$.steps[0].monitor.series.",
        "100,000 (maxItems)",
    ),
    (
        "my.cnf size",
        lambda d: d["server"].__setitem__("my_cnf", "#" * MEGABYTE),
        "$.server.my_cnf",
        "1,048,576 characters, over the limit of 262,144 (maxLength)",
    ),
    (
        "option value length",
        lambda d: d["server"]["my_cnf_options"].__setitem__("innodb_x", "v" * MEGABYTE),
        "$.server.my_cnf_options.innodb_x",
        "over the limit of 65,536 (maxLength)",
    ),
    (
        "variable value length",
        lambda d: d["server"]["variables"].__setitem__("init_connect", "v" * 65_537),
        "$.server.variables.init_connect",
        "65,537 characters",
    ),
    (
        "number of variables",
        lambda d: _many(d["server"]["variables"], 8193, "1"),
        "$.server.variables",
        "8,193 members, over the limit of 8,192 (maxProperties)",
    ),
    (
        "number of my.cnf options",
        lambda d: _many(d["server"]["my_cnf_options"], 4097, "1"),
        "$.server.my_cnf_options",
        "limit of 4,096 (maxProperties)",
    ),
    (
        "number of status counters",
        lambda d: _many(d["steps"][0]["server_status_delta"], 8193, 1),
        "$.steps[0].server_status_delta",
        "limit of 8,192",
    ),
    (
        "number of commands",
        lambda d: d["reproduce"]["commands"].extend(
            d["reproduce"]["commands"][:1] * (65_537 - len(d["reproduce"]["commands"]))
        ),
        "$.reproduce.commands",
        "limit of 65,536 (maxItems)",
    ),
    (
        "command length",
        lambda d: d["reproduce"]["commands"][0].__setitem__("command", "x" * 65_537),
        "$.reproduce.commands[0].command",
        "limit of 65,536",
    ),
    (
        "campaign title",
        lambda d: d["campaign"].__setitem__("title", "t" * 201),
        "$.campaign.title",
        "201 characters, over the limit of 200",
    ),
    (
        "status reason",
        lambda d: d.__setitem__("status_reason", "r" * MEGABYTE),
        "$.status_reason",
        "limit of 65,536",
    ),
    (
        "CPU affinity",
        lambda d: d["host"].__setitem__("cpu_affinity", list(range(8193))),
        "$.host.cpu_affinity",
        "limit of 8,192",
    ),
]


@pytest.mark.parametrize(
    ("breakage", "path", "message"),
    [pytest.param(*case[1:], id=case[0]) for case in OVER_THE_LIMIT],
)
def test_over_a_limit_is_refused_with_file_path_and_limit(tmp_path, breakage, path, message):
    doc = json.loads(SYSBENCH.read_text())
    breakage(doc)
    target = tmp_path / SYSBENCH.name
    target.write_text(json.dumps(doc))
    loaded, problems = contract.load_run(target)
    assert loaded is None
    assert any(
        str(problem).startswith(f"{target}: {path}") and message in str(problem)
        for problem in problems
    ), problems
    # One short line, not the value: a megabyte string is not echoed back.
    assert all(len(str(problem)) < 300 for problem in problems)


def test_ibench_lists_are_bounded_too(tmp_path):
    doc = json.loads(IBENCH.read_text())
    step = next(step for step in doc["steps"] if step.get("problems") is not None)
    step["problems"] = ["slow"] * 1025
    problems = contract.validate_document(doc, "ibench.json")
    where = f"$.steps[{doc['steps'].index(step)}].problems"
    expected = f"ibench.json: {where}: 1,025 items, over the limit of 1,024 (maxItems)"
    assert [str(p) for p in problems] == [expected]


def test_a_long_real_campaign_is_valid():
    """Thread levels 1 to 1,024 (powers of two), hour-long steps sampled every second, and a
    64 KiB option value."""
    doc = json.loads(SYSBENCH.read_text())
    step = copy.deepcopy(doc["steps"][0])
    for name in step["series"]:
        step["series"][name] = [1.0] * 3600
    for name in step["monitor"]["series"]:
        step["monitor"]["series"][name] = [1.0] * 3600
    doc["steps"] = [{**step, "threads": 2**power} for power in range(11)]
    doc["server"]["my_cnf_options"]["optimizer_switch"] = "x" * 65_536
    assert contract.validate_document(doc, f"{doc['id']}.json") == []


def test_campaign_files_cannot_ask_for_more_than_a_run_holds():
    """A step longer than a series may be, or a title longer than a run's, is refused before the
    campaign runs, not after hours of measuring."""
    campaign = json.loads((REPO / "harness" / "campaign" / "campaign.schema.json").read_text())
    run = json.loads(SCHEMA_PATH.read_text())
    sweep = campaign["properties"]["sweep"]["properties"]
    assert sweep["step_seconds"]["maximum"] <= run["$defs"]["series"]["maxItems"]
    assert sweep["threads"]["items"]["maximum"] <= run["properties"]["steps"]["maxItems"]
    for key in ("title", "description"):
        assert (
            campaign["properties"][key]["maxLength"]
            == run["properties"]["campaign"]["properties"][key]["maxLength"]
        )
