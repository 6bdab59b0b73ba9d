"""The site's one number format: the generator's numbers.format_number prints what Hugo's
helpers/num.html prints, ties included, since a campaign or run table's cells come from one and
a list's figures from the other."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from generator.hugo.command import hugo_binary
from generator.pages.numbers import format_number
from tests.helpers.paths import REPO

pytestmark = pytest.mark.site

# Ties at every number of decimals the format shows, in both directions of their binary
# neighbour (3.885 is stored just below, 0.125 exactly), negatives, and plain values.
NUMBERS = [
    480.5, 1234.5, -1234.5, 2089593.8, 18.45, 45.25, 12.35, 3.885, 6.095, 1.005, 1.015, 2.675,
    0.285, 0.125, 0.0125, 0.00125, 0.000125, 0.5, 0.034, 99.95, 9.995, 0.9995, 12.0, 0.0, -2.5,
    -0.125, 3.14159, 2451249.0,
]  # fmt: skip


def test_the_generator_rounds_as_hugo(tmp_path):
    site = tmp_path / "site"
    (site / "layouts" / "_partials" / "helpers").mkdir(parents=True)
    shutil.copy(
        REPO / "layouts" / "_partials" / "helpers" / "num.html",
        site / "layouts" / "_partials" / "helpers" / "num.html",
    )
    (site / "numbers.json").write_text(json.dumps({"numbers": NUMBERS}))
    (site / "layouts" / "home.html").write_text(
        '{{ range (transform.Unmarshal (readFile "numbers.json")).numbers }}'
        '{{ partial "helpers/num.html" . }}\n{{ end }}'
    )
    (site / "hugo.toml").write_text(
        "baseURL = '/'\ndisableKinds = ['sitemap', 'rss', 'taxonomy', 'term', 'section']\n"
    )
    subprocess.run([str(hugo_binary()), "build", "--source", str(site), "--quiet"], check=True)
    printed = (site / "public" / "index.html").read_text().splitlines()
    assert printed == [format_number(number) for number in NUMBERS]
