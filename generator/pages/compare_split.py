"""The compare index (pages/compare_index.py) as a reader downloads it: a catalogue and one file
per campaign.

An archive of thousands of runs makes one index of megabytes, while a view shows a campaign or
two. The catalogue holds the rules the page applies and, per campaign, what the picker and the
campaign menu need (title, base, variants, passes, workloads, servers) and the version of its
file; each campaign's file holds its runs, its merged cells and the environments its runs had.
js/compare/catalogue.js fetches the catalogue, then the files of the campaigns a view names,
and reassembles them into the single index's shape.

A run outside any campaign file's reach does not exist: every run document names its campaign
(a lone run is a campaign of one, its file a few kilobytes). A URL may name runs by id; the page
finds a run's campaign as the longest campaign id that its id starts with (followed by "."), the
harness's naming; the catalogue's "elsewhere" lists the runs for which that rule would be wrong.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

FILE_VERSION_CHARS = 12  # of the file's sha256: enough to tell two versions of one file apart


def _file_version(content: dict[str, Any]) -> str:
    """A digest of the file's content, which the page appends to its URL so a browser's cached
    copy of an older version is never used."""
    text = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:FILE_VERSION_CHARS]


def _distinct(values: list[Any]) -> list[Any]:
    return list(dict.fromkeys(values))


def campaign_of_id(run_id: str, campaign_ids: set[str]) -> str | None:
    """The campaign a run id names by the harness's rule (see the module docstring), or None.
    Mirrored by js/compare/catalogue.js."""
    ends = [at for at, char in enumerate(run_id) if char == "."]
    return next((run_id[:at] for at in reversed(ends) if run_id[:at] in campaign_ids), None)


def _catalogue_entry(file: dict[str, Any]) -> dict[str, Any]:
    """What the campaign menu and the run picker know of a campaign before its file is fetched."""
    campaign, runs = file["campaign"], file["runs"]
    return {
        "id": campaign["id"],
        "title": campaign["title"],
        "base": campaign["base"],
        "variants": _distinct([run["variant"] for run in runs]),
        "passes": sorted({run["pass"] for run in runs} - {None}),
        "workloads": _distinct([run["workload"] for run in runs]),
        "servers": _distinct([run["server"] for run in runs]),
        "version": _file_version(file),
    }


def split_compare_index(index: dict[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """(catalogue, campaign id -> its file), holding exactly what `index` holds."""
    environments = index["drift"]["environments"]
    runs_of: dict[str, list[dict[str, Any]]] = {}
    for run in index["runs"]:
        runs_of.setdefault(run["campaign"], []).append(run)
    cells_of: dict[str, list[dict[str, Any]]] = {}
    for cell in index["cells"]:
        cells_of.setdefault(cell["campaign"], []).append(cell)
    files: dict[str, dict[str, Any]] = {}
    for campaign in index["campaigns"]:
        runs = runs_of[campaign["id"]]
        used = _distinct([run["environment"] for run in runs])
        files[campaign["id"]] = {
            "campaign": campaign,
            "environments": [environments[position] for position in used],
            "runs": [{**run, "environment": used.index(run["environment"])} for run in runs],
            "cells": cells_of.get(campaign["id"], []),
        }
    return compare_catalogue(index, files), files


def compare_catalogue(index: dict[str, Any], files: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The catalogue of campaign files (campaign id -> its file, in campaign id order) under
    the rules of index, any compare index (that of no runs holds the rules alone)."""
    campaign_ids = set(files)
    catalogue = {key: value for key, value in index.items() if key not in ("runs", "cells")}
    catalogue["drift"] = {"fields": index["drift"]["fields"]}
    catalogue["campaigns"] = [_catalogue_entry(file) for file in files.values()]
    catalogue["elsewhere"] = {
        run["id"]: run["campaign"]
        for file in files.values()
        for run in file["runs"]
        if campaign_of_id(run["id"], campaign_ids) != run["campaign"]
    }
    return catalogue
