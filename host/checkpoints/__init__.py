"""Checkpoints of a session's folder (contract section 16)."""
