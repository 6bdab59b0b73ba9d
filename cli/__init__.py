"""The `mybench` command line: the one place that joins the harness (measuring) and the
generator (publishing), which never import each other. `cli/main.py` is the entry point,
`cli/commands/` holds one module per command, `cli/common.py` what they share."""
