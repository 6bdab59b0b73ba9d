"""One my.cnf on every release of a series: the options an older or newer release would read
differently, mapped so each runs the setting the campaign meant, and every mapping recorded with
its reason (run documents' server.mapped_options; the campaign page lists them beside the config
diff). An option a release cannot be given at all is refused at preflight with
option_hints.py's hint instead; a compiled default that differs across releases is no mapping:
the config diff shows it, and the campaign pins it in my.cnf (`loose_` for an option some
releases do not know).

Each rule is checked against the releases `mybench server fetch` installs
(`mariadbd --no-defaults --verbose --help` and SHOW GLOBAL VARIABLES of each).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import contract
from harness.servers import mycnf
from harness.servers.products.identity import Product
from harness.servers.products.versions import Versions, until


@dataclass(frozen=True)
class Rule:
    family: str
    versions: Versions
    # The campaign's server options -> the options to set and the reason; None when the rule
    # has nothing to do for these options.
    apply: Callable[[dict[str, str]], tuple[dict[str, str], str] | None]


_ONE_REDO_FILE = (
    "MariaDB 10.5 and later keep one redo file of innodb_log_file_size; before 10.5 the"
    " default of 2 files doubles the redo capacity, so one file keeps it equal"
)


def _one_redo_file(options: dict[str, str]) -> tuple[dict[str, str], str] | None:
    if "innodb_log_file_size" not in options or "innodb_log_files_in_group" in options:
        return None
    return {"innodb_log_files_in_group": "1"}, _ONE_REDO_FILE


RULES = (Rule("mariadb", until(10, 5), _one_redo_file),)


def map_options(product: Product, tuned: str) -> tuple[str, list[contract.MappedOption]]:
    """tuned with the mappings for this release applied, and what was mapped and why."""
    options = mycnf.server_options(tuned)
    mapped: list[contract.MappedOption] = []
    for rule in RULES:
        if rule.family != product.family or product.version not in rule.versions:
            continue
        if (change := rule.apply(options)) is None:
            continue
        overrides, reason = change
        heading = f"set by mybench for {product.label}: {reason}"
        tuned = mycnf.apply_variant(tuned, "", overrides, heading)
        mapped += [
            {"option": name, "value": value, "reason": reason} for name, value in overrides.items()
        ]
    return tuned, mapped
