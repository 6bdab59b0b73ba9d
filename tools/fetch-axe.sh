#!/usr/bin/env bash
# Vendor axe-core (the accessibility rules tests/browser/test_a11y.py runs in Chromium) from the
# npm registry into tests/browser/vendor/, where it is committed so the tests need no network.
# tools/npm-pack.sh downloads it with npm and checks the pinned integrity.
# axe-core is MPL-2.0: its LICENSE is kept beside the file, unmodified.
# Usage: tools/fetch-axe.sh [VERSION]   (default 4.14.1)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version=${1:-4.14.1}
# The registry's own integrity (SRI sha512 of the tarball); a download that differs is refused.
declare -A integrity=(
  [4.14.1]=sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==
)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tarball=$(tools/npm-pack.sh "axe-core@$version" "${integrity[$version]:-}" "$scratch")
tar -xzf "$tarball" -C "$scratch" package/axe.min.js package/LICENSE
vendor=tests/browser/vendor
mkdir -p "$vendor"
mv "$scratch/package/axe.min.js" "$vendor/axe.min.js"
mv "$scratch/package/LICENSE" "$vendor/axe-core.LICENSE"
echo "$PWD/$vendor/axe.min.js"
