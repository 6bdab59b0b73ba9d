#!/usr/bin/env bash
# Vendor plotly.js's basic bundle (scatter, bar, pie: every trace type the site draws) from the
# npm registry into site/assets/vendor/, where it is committed so builds need no network.
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
url="https://registry.npmjs.org/plotly.js-basic-dist-min/-/plotly.js-basic-dist-min-$version.tgz"
echo "fetching $url" >&2
curl -fsSL -o "$scratch/package.tgz" "$url"
got="sha512-$(python3 -c 'import base64, hashlib, sys; print(base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$scratch/package.tgz")"
if [ "$got" != "${integrity[$version]}" ]; then
  echo "integrity mismatch for $url: got $got" >&2
  exit 1
fi
tar -xzf "$scratch/package.tgz" -C "$scratch" package/plotly-basic.min.js
mkdir -p site/assets/vendor
mv "$scratch/package/plotly-basic.min.js" site/assets/vendor/plotly-basic.min.js
echo "$PWD/site/assets/vendor/plotly-basic.min.js"
