"""Adapters for files: scenarios, armies and save files (the rules core does no I/O)."""
