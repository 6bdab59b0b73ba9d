"""A run's replay.sh and the Reproduce list of its page, from the recorded commands."""
