#!/usr/bin/env bash
# Print the bin/ directory of a Go toolchain new enough for tools/go.mod (actionlint runs as
# `go tool`). Uses the go on PATH when it is recent enough; otherwise fetches the official
# toolchain zip from the Go module proxy (the same download GOTOOLCHAIN=auto performs) into .tools/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
wanted=$(awk '$1 == "go" {print $2}' tools/go.mod)

new_enough() {
  local have
  have=$("$1" env GOVERSION 2>/dev/null | sed 's/^go//') || return 1
  [ "$(printf '%s\n%s\n' "$wanted" "$have" | sort -V | head -n1)" = "$wanted" ]
}

if command -v go >/dev/null && new_enough "$(command -v go)"; then
  dirname "$(command -v go)"
  exit 0
fi
local_go=".tools/go/bin/go"
if [ -x "$local_go" ] && new_enough "$local_go"; then
  echo "$PWD/.tools/go/bin"
  exit 0
fi
arch=$(uname -m | sed 's/x86_64/amd64/; s/aarch64/arm64/')
url="https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-go${wanted}.linux-${arch}.zip"
echo "fetching Go ${wanted} from ${url}" >&2
rm -rf .tools/go .tools/go.zip
mkdir -p .tools
curl -fsSL -o .tools/go.zip "$url"
python3 -m zipfile -e .tools/go.zip .tools/toolchain
mv .tools/toolchain/golang.org/toolchain@v0.0.1-go"${wanted}".linux-"${arch}" .tools/go
rm -rf .tools/toolchain .tools/go.zip
chmod +x .tools/go/bin/* .tools/go/pkg/tool/*/*
echo "$PWD/.tools/go/bin"
