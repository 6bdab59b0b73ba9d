"""Site-build benchmark: build time and page weight per page type for the current data.

    .venv/bin/python bench/site_build.py [--data DIR ...] [--copies N] [--repeat R]

--copies N builds from N renamed copies of every run (in a temp dir) to see how the build
scales; the numbers printed are measurements of this machine, nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from generator._build import generate
from generator._hugo import hugo_binary, run_build

REPO = Path(__file__).resolve().parents[1]
# What a first visit downloads besides the HTML: stylesheet, scripts, figures, plotly.js.
ASSET_LINK = re.compile(
    r'(?:<link rel="stylesheet" href|<script defer src|data-plotly-src)="(/[^"]+)"'
)
PAGE_TYPES = {
    "home": "index.html",
    "run": "runs/*/index.html",
    "campaign": "campaigns/*/index.html",
    "article": "posts/*/index.html",
    "runs list": "runs/index.html",
}


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
    html = page.read_text()
    weight = {"html": len(html.encode()), "css": 0, "js": 0, "figures": 0, "plotly (lazy)": 0}
    for link in sorted(set(ASSET_LINK.findall(html))):
        size = (public / link.lstrip("/")).stat().st_size
        kind = "css" if link.endswith(".css") else "figures" if link.endswith(".json") else "js"
        weight[kind] += size
    if 'data-plotly-src="' in html:
        weight["plotly (lazy)"] = sum(p.stat().st_size for p in public.glob("vendor/plotly*.js"))
    return weight


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", help="data dir (default: data/)")
    parser.add_argument("--copies", type=int, default=0, help="build from N copies of each run")
    parser.add_argument("--repeat", type=int, default=3, help="builds to time (median shown)")
    args = parser.parse_args()
    data_dirs = args.data or [REPO / "data"]
    with tempfile.TemporaryDirectory() as scratch:
        scratch_dir = Path(scratch)
        if args.copies:
            data_dirs = [copied_data(data_dirs, args.copies, scratch_dir / "data")]
        build_dir, public = scratch_dir / "build", scratch_dir / "public"
        generate_s, hugo_s = [], []
        for _ in range(args.repeat):
            started = time.perf_counter()
            runs, campaigns, overlay = generate(data_dirs, build_dir)
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
        print(
            f"{'page type':<10} {'html':>9} {'css':>7} {'js':>7} {'figures':>8} {'plotly (lazy)':>14}"
        )
        for kind, pattern in PAGE_TYPES.items():
            pages_of_kind = sorted(public.glob(pattern))
            if not pages_of_kind:
                continue
            weight = page_weight(public, pages_of_kind[0])
            print(
                f"{kind:<10} {weight['html']:>9,} {weight['css']:>7,} {weight['js']:>7,} "
                f"{weight['figures']:>8,} {weight['plotly (lazy)']:>14,}"
            )
        total = sum(p.stat().st_size for p in public.rglob("*") if p.is_file())
        print(f"site total {total:,} bytes")


def hugo_version() -> str:
    output = subprocess.run(
        [str(hugo_binary()), "version"], capture_output=True, text=True, check=True
    ).stdout
    return output.split()[1] if output else "?"


if __name__ == "__main__":
    main()
