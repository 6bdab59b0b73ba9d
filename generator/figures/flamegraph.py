"""Flame graphs as SVG, drawn by inferno (contract.inferno): one per profiled step of a run, and
differential ones (a campaign cell's variant against its base).

inferno's SVG is self-contained: its fonts are the browser's monospace, and it carries its own
small script for click-to-zoom and search, which runs when the page embeds the file as an
<object>; shown as a plain image it is the static picture. Every option that could vary between
builds is fixed here, so the same stacks give the same bytes: colours come from a hash of the
function name (--hash), never from a random palette draw.

A differential graph is inferno-diff-folded's output drawn by inferno-flamegraph: the frames'
widths are the variant's samples, a frame is red where the variant spent a larger share there
than the base, blue where a smaller one, the deeper the colour the larger the difference.
--normalize scales the base's counts to the variant's total first, so two sides sampled for
different lengths of time compare by share (content/guide/flame-graphs.md says the same to
readers).
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from contract import Stack, inferno
from generator.analysis.profiles import folded_text

# Wide enough for a step's labels at the page's width; frames under MIN_WIDTH_PCT of the
# samples are left out (a thousand slivers nobody can hover add only bytes).
WIDTH_PX = 1200
MIN_WIDTH_PCT = 0.1
COMMON_OPTIONS = (
    "--hash",
    "--countname",
    "samples",
    "--minwidth",
    str(MIN_WIDTH_PCT),
    "--width",
    str(WIDTH_PX),
)


class FlameGraphFailed(RuntimeError):
    pass


def _run(command: list[str], text: str) -> bytes:
    """A tool's output for text on its stdin; FlameGraphFailed with its own message otherwise."""
    done = subprocess.run(command, input=text.encode(), capture_output=True, check=False)
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip() or f"exit status {done.returncode}"
        raise FlameGraphFailed(f"{Path(command[0]).name} failed: {why}")
    return done.stdout


def _draw(folded: str, title: str, subtitle: str) -> bytes:
    command = [
        inferno("inferno-flamegraph"),
        *COMMON_OPTIONS,
        "--title",
        title,
        "--subtitle",
        subtitle,
        "-",
    ]
    return _run(command, folded)


def flame_graph(stacks: Mapping[Stack, int], title: str, subtitle: str) -> bytes:
    """The SVG of one profile's stacks."""
    return _draw(folded_text(stacks), title, subtitle)


def differential_flame_graph(
    base: Mapping[Stack, int], variant: Mapping[Stack, int], title: str, subtitle: str
) -> bytes:
    """The SVG of variant against base: widths from the variant, red grew, blue shrank, by
    share (the base normalised to the variant's samples)."""
    with tempfile.TemporaryDirectory(prefix="mybench-flame-") as folder:
        paths = [Path(folder) / "base.folded", Path(folder) / "variant.folded"]
        for path, stacks in zip(paths, (base, variant), strict=True):
            path.write_text(folded_text(stacks))
        diff = _run([inferno("inferno-diff-folded"), "--normalize", *map(str, paths)], "")
    return _draw(diff.decode(), title, subtitle)
