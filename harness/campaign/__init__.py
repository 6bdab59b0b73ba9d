"""Campaign files: the TOML a user writes and its JSON Schema, loaded into the campaign model
(harness/model/), and new ones written from a preset."""
