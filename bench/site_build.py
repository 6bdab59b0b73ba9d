"""Site-build benchmark: build time and page weight per page type for the current data.

    .venv/bin/python bench/site_build.py [--data DIR ...] [--copies N] [--repeat R]

--copies N builds from N renamed copies of every run (in a temp dir) to see how the build
scales; the numbers printed are measurements of this machine, nothing is asserted. Page weight is
what a first visit downloads before plotly.js, raw and gzip -9 (what a server sends compressed);
plotly.js itself is listed apart, the shipped bundle beside plotly.py's full one.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import plotly
from committed_data import committed_data

from generator.hugo.build import generate
from generator.hugo.command import hugo_binary, run_build

REPO = Path(__file__).resolve().parents[1]
# What a first visit downloads besides the HTML: stylesheet, scripts, figures (plotly.js apart).
ASSET_LINK = re.compile(
    r'(?:<link rel="stylesheet" href|<script defer src|<script src|data-plotly-src)="(/[^"]+)"'
)
PAGE_TYPES = {
    "home": "index.html",
    "run": "runs/*/index.html",
    "campaign": "campaigns/*/index.html",
    "article": "posts/*/index.html",
    "runs list": "runs/index.html",
    "browse": "browse/index.html",
    "compare": "compare/index.html",
}
FULL_PLOTLY = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def gz(content: bytes) -> int:
    return len(gzip.compress(content, compresslevel=9))


def copied_data(data_dirs: list[Path], copies: int, into: Path) -> Path:
    """A data dir holding `copies` renamed copies of every run, for scaling measurements."""
    runs_dir = into / "runs"
    runs_dir.mkdir(parents=True)
    for data_dir in data_dirs:
        for path in sorted((data_dir / "runs").glob("*.json")):
            doc = json.loads(path.read_text())
            for copy in range(copies):
                doc_copy = {**doc, "id": f"{doc['id']}-copy{copy}"}
                doc_copy["campaign"] = {
                    **doc["campaign"],
                    "id": f"{doc['campaign']['id']}-copy{copy}",
                }
                (runs_dir / f"{doc_copy['id']}.json").write_text(json.dumps(doc_copy))
    return into


def page_weight(public: Path, page: Path) -> dict[str, int]:
    html = page.read_bytes()
    weight = {"html": len(html), "css": 0, "js": 0, "figures": 0, "total gz": gz(html)}
    links = {link.lstrip("/") for link in ASSET_LINK.findall(html.decode())}
    # What a page's script fetches first (the compare catalogue; /browse/'s filter index and its
    # first page) is fingerprinted beside the page.
    first = ("catalogue.*.json", "filters.*.json", "pages/1.*.json")
    links |= {p.relative_to(public).as_posix() for g in first for p in page.parent.glob(g)}
    for link in sorted(links):
        content = (public / link).read_bytes()
        kind = "css" if link.endswith(".css") else "figures" if link.endswith(".json") else "js"
        weight[kind] += len(content)
        weight["total gz"] += gz(content)
    return weight


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, action="append", help="data dir (default: data/ as committed)"
    )
    parser.add_argument("--copies", type=int, default=0, help="build from N copies of each run")
    parser.add_argument("--repeat", type=int, default=3, help="builds to time (median shown)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        scratch_dir = Path(scratch)
        data_dirs = args.data or [committed_data(scratch_dir / "committed")]
        if args.copies:
            data_dirs = [copied_data(data_dirs, args.copies, scratch_dir / "data")]
        build_dir, public = scratch_dir / "build", scratch_dir / "public"
        generate_s, hugo_s = [], []
        for _ in range(args.repeat):
            started = time.perf_counter()
            runs, campaigns, overlay, _ = generate(data_dirs, build_dir)
            generated = time.perf_counter()
            pages = run_build(overlay, public, "/")
            generate_s.append(generated - started)
            hugo_s.append(time.perf_counter() - generated)
        print(f"runs {runs}, campaigns {campaigns}, pages {pages} (hugo {hugo_version()})")
        print(
            f"generator {statistics.median(generate_s):.2f}s + hugo "
            f"{statistics.median(hugo_s):.2f}s (median of {args.repeat}, "
            "second and later builds reuse unchanged generated files)"
        )
        print(f"{'page type':<10} {'html':>9} {'css':>7} {'js':>7} {'figures':>8} {'total gz':>9}")
        for kind, pattern in PAGE_TYPES.items():
            pages_of_kind = sorted(public.glob(pattern))
            if not pages_of_kind:
                continue
            weight = page_weight(public, pages_of_kind[0])
            print(
                f"{kind:<10} {weight['html']:>9,} {weight['css']:>7,} {weight['js']:>7,} "
                f"{weight['figures']:>8,} {weight['total gz']:>9,}"
            )
        for name, path in [*((p.name, p) for p in public.glob("vendor/plotly*.js")),
                           ("plotly.py's full bundle", FULL_PLOTLY)]:  # fmt: skip
            content = path.read_bytes()
            print(f"plotly.js {name}: {len(content):,} bytes, {gz(content):,} gzip")
        total = sum(p.stat().st_size for p in public.rglob("*") if p.is_file())
        print(f"site total {total:,} bytes")


def hugo_version() -> str:
    output = subprocess.run(
        [str(hugo_binary()), "version"], capture_output=True, text=True, check=True
    ).stdout
    return output.split()[1] if output else "?"


if __name__ == "__main__":
    main()
