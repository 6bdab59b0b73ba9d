"""The servers a campaign measures: sandboxes the harness starts itself and existing servers it
connects to, what they share (the Server protocol), and what they need (my.cnf composition,
product knowledge, compiled defaults, pinning, pristine datadirs, build origin)."""
