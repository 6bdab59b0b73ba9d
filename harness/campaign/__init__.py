"""Campaign files: the TOML a user writes, its JSON Schema, and the preset suites it may name."""
