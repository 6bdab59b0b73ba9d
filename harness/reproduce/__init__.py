"""`mybench reproduce RUN`: rebuild a published run's campaign from its document and run it here."""
