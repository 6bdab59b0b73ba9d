"""A new campaign file from a preset (templates/campaign.toml.j2): what the committed campaigns
do (Dimitri's sweep, Callaghan's suite, TPC-C-like, Insert Benchmark, an A/A repeat, a
configuration study), with the servers and my.cnf variants given on the command line, written
only once it validates against the campaign schema."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from contract.text_templates import text_templates
from harness.campaign.load import load_campaign
from harness.errors import UserError
from harness.model.campaign import OptionValue

TomlValue = OptionValue | list[int] | dict[str, OptionValue]
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_NOT_IN_LABEL = re.compile(r"[^a-z0-9_-]+")
LABEL_LENGTH = 40  # the schema's $defs/label maxLength
_THREADS_1_TO_32 = [1, 2, 4, 8, 16, 32]
# The step timing the committed campaigns found a measured step needs on a 2-vCPU VM (their
# header comments have the figures): sysbench writes swing in 20-30 s waves of page flushing;
# 60 s steps failed the steady-state test in 20 of 72 cases of the binary-log campaign, 120 s
# steps in 2 of 18 of the TPC-C-like one. Each measured step waits for the checkpoint first, so
# no step inherits the write debt of the step or workload before it (content/guide/campaigns.md
# says when a step is long enough for its debt to reach its ceiling).
_STEADY_STEPS: dict[str, int | str] = {
    "step_seconds": 120,
    "sleep_seconds": 2,
    "warmup_seconds": 10,
    "settle": "checkpoint",
}


def toml_value(value: TomlValue) -> str:
    """A TOML literal; a JSON string is a TOML basic string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        pairs = [f"{toml_key(key)} = {toml_value(item)}" for key, item in value.items()]
        return "{ " + ", ".join(pairs) + " }"
    return _basic_string(value)


def _basic_string(text: str) -> str:
    """A TOML basic string in UTF-8 (an em dash stays one): JSON's escapes are TOML's, and DEL,
    which JSON leaves as it is, TOML wants escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _basic_string(key)


_TEMPLATES = text_templates(
    Path(__file__).parent / "templates", {"toml": toml_value, "toml_key": toml_key}
)


@dataclass(frozen=True)
class Preset:
    brings: str  # one line for --help
    about: str  # the campaign file's opening comment: what it measures, and how ({passes})
    sweep: dict[str, int | str | list[int]]
    workloads: dict[str, dict[str, TomlValue]]
    base_buffer_pool: str | None = None
    repeat_base: bool = False  # an A/A pair: the base variant twice
    needs_variants: bool = False


def _sysbench(test: str, tables: int, table_size: int) -> dict[str, TomlValue]:
    return {"test": test, "tables": tables, "table_size": table_size}


def _sysbench_tests() -> tuple[str, ...]:
    """The tests a workload may name that run on sysbench's tables (the schema's list but the
    TPC-C-like and Insert Benchmark workloads, which bring their own data and options)."""
    schema = json.loads((Path(__file__).parent / "campaign.schema.json").read_text())
    test = schema["properties"]["workloads"]["additionalProperties"]["properties"]["test"]
    return tuple(name for name in test["enum"] if name not in ("tpcc", "ibench"))


SYSBENCH_TESTS = _sysbench_tests()


PRESETS = {
    "dimitri": Preset(
        "Dimitri Kravtchuk's sysbench set: point-selects, OLTP_RO, OLTP_RW, Update-NoKey, "
        "1-32 threads, 120 s steps from a settled checkpoint, three passes",
        "Dimitri Kravtchuk's sysbench set swept over thread counts, {passes}.\n"
        "A run of six 120 s levels takes about 14 minutes: narrow the threads (--threads) or\n"
        "split the workloads in two campaigns to fit a working session.",
        {"threads": _THREADS_1_TO_32, **_STEADY_STEPS, "repeats": 3},
        {
            "point-selects": _sysbench("oltp_point_select", 8, 100_000),
            "oltp-ro": _sysbench("oltp_read_only", 8, 100_000),
            "oltp-rw": _sysbench("oltp_read_write", 8, 100_000),
            "update-nokey": _sysbench("oltp_update_non_index", 8, 100_000),
        },
    ),
    "callaghan": Preset(
        "Mark Callaghan's 33 microbenchmarks in his order on one cached table, 1 thread, "
        "120 s per test from a settled checkpoint, three passes",
        "Mark Callaghan's microbenchmarks in his order, {passes}.\n"
        "The whole suite takes about 75 minutes a server per pass: to fit a working session,\n"
        'name the tests to run (tests = ["update-one-r100", ...] in the workload).',
        {**_STEADY_STEPS, "repeats": 3},
        {"microbenchmarks": {"preset": "callaghan", "tables": 1, "table_size": 200_000}},
    ),
    "tpcc": Preset(
        "TPC-C-like: one table set of 4 warehouses vs 4 sets of 1, 1-16 threads, 120 s steps, "
        "three passes, consistency checked after each load and run",
        "The project's TPC-C-like Lua (unaudited, not a TPC-C result): the same warehouses as\n"
        "one table set or as independent sets, {passes}.",
        {"threads": _THREADS_1_TO_32[:5], **_STEADY_STEPS, "repeats": 3},
        {
            "one-set-4w": {"test": "tpcc", "tables": 1, "options": {"scale": 4}},
            "four-sets-1w": {"test": "tpcc", "tables": 4, "options": {"scale": 1}},
        },
        base_buffer_pool="2G",
    ),
    "ibench": Preset(
        "the Insert Benchmark sized for a small VM: 2 clients, load, index, insert+delete, "
        "then range and point queries under background writes; three passes",
        "The Insert Benchmark in the reference's step order, sized for a 2-vCPU VM, {passes};\n"
        "a q step that missed its background target is greyed.",
        {"repeats": 3},
        {
            "ibench": {
                "test": "ibench",
                "options": {
                    "clients": 2,
                    "rows_l0": 500_000,
                    "rows_l12": 375_000,
                    "query_seconds": 60,
                    "flush_max_seconds": 20,
                },
            }
        },
    ),
    "aa": Preset(
        "an A/A repeat: the base my.cnf twice (base, base-again) on point-select and "
        "Update-NoKey, 1-8 threads, three passes; any --variant is a known difference beside it",
        "An A/A campaign: base and base-again share one my.cnf, so any coloured cell between\n"
        "them is noise the trust rules let through; {passes}.",
        {"threads": _THREADS_1_TO_32[:4], **_STEADY_STEPS, "repeats": 3},
        {
            "point-select": _sysbench("oltp_point_select", 4, 100_000),
            "update-nokey": _sysbench("oltp_update_non_index", 4, 100_000),
        },
        repeat_base=True,
    ),
    "config": Preset(
        "a configuration study: the base my.cnf against each --variant (one needed) on OLTP_RW "
        "and Update-NoKey, 1-32 threads, 120 s steps from a settled checkpoint, three passes",
        "A configuration study: every variant against the base my.cnf on the two sysbench\n"
        "tests that commit, {passes}.",
        {"threads": _THREADS_1_TO_32, **_STEADY_STEPS, "repeats": 3},
        {
            "oltp-rw": _sysbench("oltp_read_write", 4, 100_000),
            "update-nokey": _sysbench("oltp_update_non_index", 4, 100_000),
        },
        needs_variants=True,
    ),
}


@dataclass(frozen=True)
class Variant:
    label: str
    options: dict[str, OptionValue]

    @property
    def description(self) -> str:
        """What its run pages say it is until the author writes why."""
        settings = ", ".join(f"{name} = {toml_value(v)}" for name, v in self.options.items())
        return f"Sets {settings} over the base my.cnf."


def option_value(text: str) -> OptionValue:
    """A my.cnf value as TOML should hold it: true/false as booleans, integers as integers."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return int(text) if re.fullmatch(r"-?[0-9]{1,18}", text) else text  # TOML's are 64-bit


def parse_variant(text: str) -> Variant:
    """[LABEL:]NAME=VALUE[,NAME=VALUE...]; without a label, one made of the options."""
    label, colon, assignments = text.partition(":")
    if not colon or "=" in label:
        label, assignments = "", text
    options: dict[str, OptionValue] = {}
    for assignment in assignments.split(","):
        name, equals, value = assignment.partition("=")
        if not equals or not name.strip():
            raise UserError(f"--variant {text!r}: expected [LABEL:]NAME=VALUE[,NAME=VALUE...]")
        options[name.strip()] = option_value(value.strip())
    if not label:
        words = "-".join(f"{name}-{value}" for name, value in options.items()).lower()
        label = _NOT_IN_LABEL.sub("-", words).strip("-")[:LABEL_LENGTH].rstrip("-")
    return Variant(label, options)


def parse_server(text: str) -> tuple[str, str]:
    """LABEL=BASEDIR: a sandbox of the build in BASEDIR (/usr for the distribution's)."""
    label, equals, basedir = text.partition("=")
    if not equals or not label or not basedir:
        raise UserError(f"--server {text!r}: expected LABEL=BASEDIR, e.g. mariadb-10-11=/usr")
    return label, basedir


@dataclass(frozen=True)
class Overrides:
    """Changes to the preset's sweep and data size, e.g. for a quick first try."""

    threads: list[int] | None = None
    step_seconds: int | None = None
    repeats: int | None = None
    table_size: int | None = None
    warmup_seconds: int | None = None
    tests: tuple[str, ...] = ()  # sysbench tests instead of the preset's workloads


def passes_words(passes: int) -> str:
    """How the opening comment names the passes: 'three interleaved passes', 'one pass'."""
    if passes == 1:
        return "one pass"
    words = {2: "two", 3: "three", 4: "four", 5: "five"}
    return f"{words.get(passes, str(passes))} interleaved passes"


def test_label(test: str) -> str:
    """A workload's label for a sysbench test: oltp_update_index -> update-index."""
    return test.removeprefix("oltp_").replace("_", "-")


def _chosen_tests(preset_name: str, tests: tuple[str, ...]) -> dict[str, dict[str, TomlValue]]:
    """One workload per test, on the preset's tables and table size."""
    preset = PRESETS[preset_name]
    shapes = [w for w in preset.workloads.values() if w.get("test") in SYSBENCH_TESTS]
    if len(shapes) != len(preset.workloads):
        runs_on_sysbench = ", ".join(
            name
            for name, other in PRESETS.items()
            if all(w.get("test") in SYSBENCH_TESTS for w in other.workloads.values())
        )
        raise UserError(
            f"--test: preset {preset_name!r} runs workloads of its own; choose tests with"
            f" {runs_on_sysbench}"
        )
    tables, table_size = shapes[0]["tables"], shapes[0]["table_size"]
    assert isinstance(tables, int) and isinstance(table_size, int)
    return {test_label(test): _sysbench(test, tables, table_size) for test in tests}


def render_campaign(
    name: str,
    preset_name: str,
    servers: list[str],
    variants: list[str],
    base_mycnf: str,
    title: str | None = None,
    overrides: Overrides = Overrides(),
) -> str:
    """The campaign file's text; base_mycnf is the base my.cnf's path from the file's folder."""
    preset = PRESETS[preset_name]
    if not servers:
        raise UserError("give at least one --server LABEL=BASEDIR")
    extra = [parse_variant(text) for text in variants]
    if preset.needs_variants and not extra:
        raise UserError(f"preset {preset_name!r} compares variants: give at least one --variant")
    sweep = dict(preset.sweep)
    for key, value in (
        ("threads", overrides.threads),
        ("step_seconds", overrides.step_seconds),
        ("repeats", overrides.repeats),
        ("warmup_seconds", overrides.warmup_seconds),
    ):
        if value is not None:
            sweep[key] = value
    repeats = sweep["repeats"]
    assert isinstance(repeats, int), "every preset's sweep names its repeats"
    chosen = _chosen_tests(preset_name, overrides.tests) if overrides.tests else None
    workloads = {
        label: {
            **workload,
            **(
                {"table_size": overrides.table_size}
                if overrides.table_size and "table_size" in workload
                else {}
            ),
        }
        for label, workload in (chosen or preset.workloads).items()
    }
    context = {
        "name": name,
        "title": title or name,
        "preset": preset_name,
        "about": preset.about.format(passes=passes_words(repeats)),
        "tests": list(overrides.tests),
        "servers": dict(parse_server(text) for text in servers),
        "base_mycnf": base_mycnf,
        "base_buffer_pool": preset.base_buffer_pool,
        "repeat_base": preset.repeat_base,
        "variants": extra,
        "sweep": sweep,
        "workloads": workloads,
    }
    return _TEMPLATES.get_template("campaign.toml.j2").render(context)


def write_campaign(
    out: Path,
    base_mycnf: Path,
    name: str,
    preset_name: str,
    servers: list[str],
    variants: list[str],
    title: str | None = None,
    overrides: Overrides = Overrides(),
) -> Path:
    """Write the campaign file at out, never over an existing file, and only once it loads
    (schema and all) as `mybench run` will load it."""
    if out.exists():
        raise UserError(f"{out} exists; give another --out or remove it first")
    if not base_mycnf.is_file():
        raise UserError(f"no base my.cnf at {base_mycnf}")
    relative = os.path.relpath(base_mycnf.resolve(), out.parent.resolve())
    text = render_campaign(name, preset_name, servers, variants, relative, title, overrides)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    try:
        load_campaign(out)
    except UserError:
        out.unlink()
        raise
    return out
