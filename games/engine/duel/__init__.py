"""Splendor Duel for two players: a 5×5 board of tokens, privileges, a pyramid, crowns and royals.

The rulebook is the source; the few points it leaves open are settled in ``docs/decisions/``
(records 0042 to 0047, "Splendor Duel"). ``games.engine.duel.rules`` is what the facade calls.
"""
