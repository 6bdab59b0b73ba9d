#!/usr/bin/env bash
# Vendor plotly.js's basic bundle (scatter, bar, pie: every trace type the site draws) from the
# npm registry into site/assets/vendor/, where it is committed so builds need no network.
# tools/npm-pack.sh downloads it with npm and checks the pinned integrity.
# The version must be the one plotly.py bundles: figures are checked against that schema
# (tests/generator/test_figures.py compares the two).
# Usage: tools/fetch-plotly.sh [VERSION]   (default 4.1.1)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version=${1:-4.1.1}
# The registry's own integrity (SRI sha512 of the tarball); a download that differs is refused.
declare -A integrity=(
  [4.1.1]=sha512-1oNF8PeQx2hv/y7tqEVWKD3JGwn/MGEMQ8mL9HUwsaqG9FGy/OU5FHUHvzqbqxN4mnwZGI9abTiE775C4kkjMQ==
)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tarball=$(tools/npm-pack.sh "plotly.js-basic-dist-min@$version" "${integrity[$version]:-}" "$scratch")
tar -xzf "$tarball" -C "$scratch" package/plotly-basic.min.js
mkdir -p site/assets/vendor
mv "$scratch/package/plotly-basic.min.js" site/assets/vendor/plotly-basic.min.js
echo "$PWD/site/assets/vendor/plotly-basic.min.js"
