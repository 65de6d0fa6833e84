"""Move-by-move analysis of finished games: a projection beside the event log (issue 27).

An analysis evaluates every position of a finished game from the mover's point of view with only
what that player could see (the search bots' determinisation), and keeps, per move, the mover's
chance to win before and after it, the move the search prefers and a mark when the move lost
much. It is stored per (game, analysis version, settings), never as events, and is reproducible
from its seed. docs/decisions/0137-game-analysis.md.
"""
