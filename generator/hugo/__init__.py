"""Hugo plumbing: load and validate runs, write the build tree Hugo mounts (paths named in
site_contract.py), run `hugo build` or `hugo server`."""
