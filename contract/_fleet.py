"""How a fleet names its variants: every host of a fleet writes into one campaign (`mybench run
--fleet`), so a variant's name starts with its host's label, as a slug. The harness names the
variants this way and the campaign page reads them back to compare hosts at the same variant."""

from __future__ import annotations

import re


def host_variant_prefix(label: str) -> str:
    """A host label as the first part of a fleet's variant names ("Rack 3 (2)" -> "rack-3-2."):
    a run id and a variant are lower-case slugs."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") + "."
