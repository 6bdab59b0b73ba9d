"""The TPC-C-like workload: the project's Lua (lua/) run by the system sysbench, its command
lines and the parsers for what it prints (its options are harness/model/tpcc_options.py)."""
