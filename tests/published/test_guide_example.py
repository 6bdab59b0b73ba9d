"""The guide's worked campaign file (content/guide/campaigns.md) says what its prose says it
does: the prose under "Reading it from the top" is checked against the example's own values
(threads, step length, pause, warm-up, passes, variants, workloads, tables), and the example
loads as `mybench run` loads it."""

from __future__ import annotations

import re
import tomllib

from harness.campaign.load import load_campaign
from tests.helpers.paths import CAMPAIGNS_DIR, REPO

GUIDE = REPO / "content" / "guide" / "campaigns.md"


def _example() -> tuple[str, str]:
    """(the first TOML block of the guide's worked example, the prose that reads it)."""
    text = GUIDE.read_text()
    block = re.search(r"```toml\n(.*?)```", text, re.DOTALL)
    assert block is not None
    reading = text[block.end() :].split("Reading it from the top:", 1)[1].split("\n## ", 1)[0]
    return block[1], " ".join(reading.split())


def _and(values: list[int]) -> str:
    return (
        ", ".join(map(str, values[:-1])) + " and " + str(values[-1])
        if len(values) > 1
        else str(values[0])
    )


def test_the_prose_states_the_examples_own_values() -> None:
    toml, prose = _example()
    example = tomllib.loads(toml)
    sweep = example["sweep"]
    stated = (
        f"measures {_and(sweep['threads'])} threads for {sweep['step_seconds']} s each, with"
        f" {sweep['sleep_seconds']} s of pause between levels, after an unmeasured"
        f" {sweep['warmup_seconds']} s run"
    )
    assert stated in prose
    variants, workloads, passes = (
        len(example["variants"]),
        len(example["workloads"]),
        sweep["repeats"],
    )
    assert (
        f"{variants} variants \u00d7 {workloads} workloads \u00d7 {passes} passes ="
        f" {variants * workloads * passes} run documents" in prose
    )
    sizes = {(w["tables"], w["table_size"]) for w in example["workloads"].values()}
    assert len(sizes) == 1
    tables, rows = sizes.pop()
    assert f"use {tables} tables of {rows:,} rows" in prose
    assert f"`{next(iter(example['variants']))}`, the first variant" in prose


def test_the_example_loads(tmp_path) -> None:
    toml, _ = _example()
    copy = tmp_path / "campaigns" / "example.toml"
    copy.parent.mkdir()
    (copy.parent / "mycnf").symlink_to(CAMPAIGNS_DIR / "mycnf")
    copy.write_text(toml)
    campaign = load_campaign(copy)
    assert [w.label for w in campaign.workloads] == list(tomllib.loads(toml)["workloads"])
