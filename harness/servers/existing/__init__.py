"""A running server the harness connects to but did not start (kind = "existing")."""
