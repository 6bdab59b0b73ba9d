"""The campaign model: what a campaign asks for, as frozen values (harness/campaign/load.py
reads a campaign file into them). It imports nothing of the harness but its errors, so the
servers, workloads and measurements that carry a campaign out all import it without a cycle."""
