#!/usr/bin/env bash
# Print the bin/ directory of a Go toolchain new enough for tools/go.mod (actionlint runs as
# `go tool`). Uses the go on PATH when it is recent enough; otherwise go itself fetches the wanted
# toolchain (the golang.org/toolchain module) through the user's GOPROXY into the module cache.
# With no go at all, Debian's golang-go is installed first to do that fetch.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
wanted=$(awk '$1 == "go" {print $2}' tools/go.mod)

# Succeeds when the go given is at least version $2.
at_least() {
  local have
  have=$("$1" env GOVERSION 2>/dev/null | sed 's/^go//') || return 1
  [ "$(printf '%s\n%s\n' "$2" "$have" | sort -V | head -n1)" = "$2" ]
}

if ! command -v go >/dev/null; then
  echo "installing Debian's golang-go package" >&2
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends golang-go >&2
fi
go=$(command -v go)
if at_least "$go" "$wanted"; then
  dirname "$go"
  exit 0
fi
if at_least "$go" 1.21; then
  # Toolchain selection: go downloads go$wanted, then reports that toolchain's GOROOT.
  goroot=$(GOTOOLCHAIN="go$wanted" "$go" env GOROOT)
else
  # Older go (Debian 12 ships 1.19) has no toolchain selection: download the module it would
  # fetch and, as selection does on first use, make its commands executable.
  platform=$("$go" env GOOS)-$("$go" env GOARCH)
  goroot=$("$go" mod download -json "golang.org/toolchain@v0.0.1-go$wanted.$platform" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')
  chmod +x "$goroot"/bin/* "$goroot"/pkg/tool/*/*
fi
echo "$goroot/bin"
