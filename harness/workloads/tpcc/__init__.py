"""The TPC-C-like workload: the project's Lua (lua/) run by the system sysbench, its options,
command lines and the parsers for what it prints."""
