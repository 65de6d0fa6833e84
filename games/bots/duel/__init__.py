"""The Splendor Duel bots: the same three levels as the base game, over Duel's engine."""
