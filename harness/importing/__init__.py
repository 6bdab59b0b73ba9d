"""`mybench import`: results measured elsewhere brought into a results directory as run
documents, marked by `origin` (see README.md beside this file)."""
