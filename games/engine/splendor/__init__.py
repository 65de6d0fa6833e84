"""The base game of Splendor for 2 to 4 players."""
