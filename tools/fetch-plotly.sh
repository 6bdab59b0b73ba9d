#!/usr/bin/env bash
# Vendor plotly.js's basic bundle (scatter, bar, pie: every trace type the site draws) from the
# npm registry into site/assets/vendor/, where it is committed so builds need no network.
# npm itself downloads the package, so the registry and proxy of the user's npm settings apply.
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
if [ -z "${integrity[$version]:-}" ]; then
  echo "no pinned integrity for plotly.js-basic-dist-min $version in $0" >&2
  exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
package="plotly.js-basic-dist-min@$version"
echo "fetching $package with npm" >&2
packed=$(cd "$scratch" && npm pack "$package" --json --silent)
read -r tarball got < <(python3 -c 'import json, sys; [p] = json.load(sys.stdin); print(p["filename"], p["integrity"])' <<<"$packed")
if [ "$got" != "${integrity[$version]}" ]; then
  echo "integrity mismatch for $package: got $got" >&2
  exit 1
fi
tar -xzf "$scratch/$tarball" -C "$scratch" package/plotly-basic.min.js
mkdir -p site/assets/vendor
mv "$scratch/package/plotly-basic.min.js" site/assets/vendor/plotly-basic.min.js
echo "$PWD/site/assets/vendor/plotly-basic.min.js"
