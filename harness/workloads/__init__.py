"""What drives the load: one package per workload kind (sysbench, the TPC-C-like Lua, the Insert
Benchmark), each with a driver the campaign run uses the same way."""
