"""One module per `mybench` command (a group's subcommands with it); cli/main.py gathers them."""
