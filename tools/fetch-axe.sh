#!/usr/bin/env bash
# Vendor axe-core (the accessibility rules tests/browser/test_a11y.py runs in Chromium) from the
# npm registry into tests/browser/vendor/, where it is committed so the tests need no network.
# npm itself downloads the package, so the registry and proxy of the user's npm settings apply.
# axe-core is MPL-2.0: its LICENSE is kept beside the file, unmodified.
# Usage: tools/fetch-axe.sh [VERSION]   (default 4.14.1)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version=${1:-4.14.1}
# The registry's own integrity (SRI sha512 of the tarball); a download that differs is refused.
declare -A integrity=(
  [4.14.1]=sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==
)
if [ -z "${integrity[$version]:-}" ]; then
  echo "no pinned integrity for axe-core $version in $0" >&2
  exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
package="axe-core@$version"
echo "fetching $package with npm" >&2
packed=$(cd "$scratch" && npm pack "$package" --json --silent)
read -r tarball got < <(python3 -c 'import json, sys; [p] = json.load(sys.stdin); print(p["filename"], p["integrity"])' <<<"$packed")
if [ "$got" != "${integrity[$version]}" ]; then
  echo "integrity mismatch for $package: got $got" >&2
  exit 1
fi
tar -xzf "$scratch/$tarball" -C "$scratch" package/axe.min.js package/LICENSE
vendor=tests/browser/vendor
mkdir -p "$vendor"
mv "$scratch/package/axe.min.js" "$vendor/axe.min.js"
mv "$scratch/package/LICENSE" "$vendor/axe-core.LICENSE"
echo "$PWD/$vendor/axe.min.js"
