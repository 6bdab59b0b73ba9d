"""What the harness measures around a step, whatever drives the load: counters before and after,
the per-second sampler, and the host a run ran on."""
