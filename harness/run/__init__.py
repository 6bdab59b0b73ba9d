"""Running a campaign: passes x servers x variants x workload groups, one run document each."""
