"""Accounts: a player's profile and their personal API tokens."""
