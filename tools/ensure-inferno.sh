#!/usr/bin/env bash
# Print the bin/ directory of the inferno flame-graph tools (inferno-collapse-perf folds perf's
# samples for the harness; inferno-flamegraph and inferno-diff-folded draw the site's flame
# graphs). Installed once with cargo, at the pinned version, into .tools/inferno; cargo fetches
# the crate through the user's configured registry. With no cargo at all, Debian's is installed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version=0.12.8
root=.tools/inferno
# cargo records what it installed under a root in .crates.toml ("inferno 0.12.8 (registry+...)").
if [ -x "$root/bin/inferno-flamegraph" ] && grep -q "^\"inferno $version " "$root/.crates.toml" 2>/dev/null; then
  echo "$PWD/$root/bin"
  exit 0
fi
if ! command -v cargo >/dev/null; then
  echo "installing Debian's cargo package" >&2
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends cargo >&2
fi
echo "building inferno $version with cargo into $root (once)" >&2
cargo install --quiet --locked --version "$version" --root "$root" inferno >&2
echo "$PWD/$root/bin"
