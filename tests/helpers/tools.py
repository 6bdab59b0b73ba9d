"""Command-line tools some tests need on PATH, and where each comes from."""

from __future__ import annotations

import shutil

# The first `go tool actionlint` compiles the tool from the module cache.
GO_TOOL_TIMEOUT_S = 600


TOOL_SOURCES = {
    "go": "Go >= the `go` line of tools/go.mod (`tools/ensure-go.sh` prints one; CI: setup-go)",
    "shellcheck": "Debian's `shellcheck` package (`make test` installs it)",
}


def required_tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is not on PATH; install {TOOL_SOURCES[name]}"
    return path
