"""Projection tables rebuilt from the game event log (not written yet)."""
