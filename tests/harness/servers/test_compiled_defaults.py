"""Compiled defaults of a server build (harness/servers/compiled_defaults.py) from a real fresh server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.servers import compiled_defaults
from harness.servers.sandbox import Binaries, Sandbox


def test_differences_name_the_default_of_each_changed_variable():
    variables = {"a": "1", "b": "2", "plugin_x": "ON", "port": "3307"}
    compiled = {"variables": {"a": "1", "b": "3"}, "per_instance": ["port"]}
    assert compiled_defaults.differences(variables, compiled) == {"b": "3", "plugin_x": None}


@pytest.mark.server
def test_fresh_server_defaults_are_cached_per_build(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    binaries = Binaries.find(Path("/usr"))
    compiled = compiled_defaults.compiled_defaults(binaries, tmp_path / "probe")
    (cached,) = compiled_defaults.cache_dir().glob("*.json")
    assert json.loads(cached.read_text()) == compiled
    assert compiled["variables"]["innodb_buffer_pool_size"] == str(128 * 2**20)  # the default
    assert {"port", "socket", "datadir", "server_uid"} <= set(compiled["per_instance"])
    # a second call reads the cache: no server is started (the scratch dir stays unused)
    assert compiled_defaults.compiled_defaults(binaries, tmp_path / "unused") == compiled
    assert not (tmp_path / "unused").exists()
    tuned = "[mysqld]\ninnodb_buffer_pool_size = 256M\nskip_log_bin\n"
    with Sandbox(binaries, tmp_path / "tuned", tuned) as box:
        changed = compiled_defaults.differences(box.describe()["variables"], compiled)
    assert changed["innodb_buffer_pool_size"] == str(128 * 2**20)
    assert "skip_log_bin" not in changed  # not a variable; log_bin was already OFF by default
    assert not {"port", "datadir", "version"} & set(changed)
