"""sysbench 1.0.20: its command lines and output, the project's Lua tests (lua/), datasets and
their loading, and Callaghan's post-write step."""
