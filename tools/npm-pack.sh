#!/usr/bin/env bash
# Download one npm package's tarball with `npm pack` and refuse it unless it has the pinned
# integrity (the registry's SRI sha512), for the scripts that vendor a file from npm.
# npm itself downloads the package, so the registry and proxy of the user's npm settings apply.
# Usage: tools/npm-pack.sh NAME@VERSION INTEGRITY DIR   (prints the tarball's path in DIR)
set -euo pipefail
package=$1 integrity=$2 dir=$3
if [ -z "$integrity" ]; then
  echo "no pinned integrity for $package in ${0%/*}/fetch-*.sh" >&2
  exit 2
fi
echo "fetching $package with npm" >&2
packed=$(cd "$dir" && npm pack "$package" --json --silent)
read -r tarball got < <(python3 -c 'import json, sys; [p] = json.load(sys.stdin); print(p["filename"], p["integrity"])' <<<"$packed")
if [ "$got" != "$integrity" ]; then
  echo "integrity mismatch for $package: got $got" >&2
  exit 1
fi
echo "$dir/$tarball"
