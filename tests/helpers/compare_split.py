"""The compare index reassembled from its catalogue and campaign files, as js/compare/catalogue.js
does once every campaign's file is loaded: the tests compare it with the single index."""

from __future__ import annotations

from typing import Any

from generator.hugo import site_contract as site
from generator.pages.compare_split import split_compare_index


def reassembled(catalogue: dict[str, Any], files: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The single index's shape: campaigns, runs, cells in catalogue order, environments
    numbered in order of first appearance."""
    environments: list[list[str]] = []
    runs, cells = [], []
    for entry in catalogue["campaigns"]:
        file = files[entry["id"]]
        for run in file["runs"]:
            values = file["environments"][run["environment"]]
            if values not in environments:
                environments.append(values)
            runs.append({**run, "environment": environments.index(values)})
        cells += file["cells"]
    index = {key: value for key, value in catalogue.items() if key != "elsewhere"}
    index["campaigns"] = [files[entry["id"]]["campaign"] for entry in catalogue["campaigns"]]
    index["drift"] = {**catalogue["drift"], "environments": environments}
    return {**index, "runs": runs, "cells": cells}


def split_and_reassembled(index: dict[str, Any]) -> dict[str, Any]:
    return reassembled(*split_compare_index(index))


def campaign_file_paths(files: dict[str, bytes]) -> list[str]:
    """The paths of the compare index's campaign files among a build's generated files."""
    return sorted(path for path in files if path.startswith(f"{site.COMPARE_STATIC}/"))
