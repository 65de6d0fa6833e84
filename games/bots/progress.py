"""Progress toward a purchase: the rule that keeps a bot at the token limit from marking time.

A player may end a turn with at most ten tokens, so a take that goes over must give the excess
back at once. When what is given back leaves the player no nearer to any purchase it can see,
the take gained nothing but a turn spent; ranked by the evaluation alone, such a take can look
as good as anything else, and two greedy bots once took and gave back tokens for a thousand
actions of a Duel (docs/decisions/0141-bots-make-progress.md). The greedy and search bots
count it as no gain: a *wasted take* ranks below every action that is not one, so a bot at the
limit buys, reserves, or takes what brings a card nearer, and marks time only when nothing else
is legal. (The random bot stays uniformly random: it cannot hold a plan long enough to loop.)

"Nearer" is measured by :func:`nearest_purchase`: the fewest tokens the player still lacks for
any card it could buy (face up, or reserved), after gold. A take within the limit is never
wasted (the player holds more), and a wasted-take check judges the hand once the returns are
made. Splendor Duel's measure is ``games.bots.duel.progress``; :func:`wasted_last` serves both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.bots.evaluation import CARD_COST
from games.engine import Action

NOTHING_IN_SIGHT = 0
"""The nearest purchase when no card can be seen: no take brings it nearer."""


def nearest_purchase(tokens: Sequence[int], bonuses: Sequence[int], cards: Iterable[int]) -> int:
    """The fewest tokens the hand still lacks for one of ``cards``, once its gold is spent.

    Zero when one of them is affordable (or when there is none).
    """
    gold = tokens[5]
    nearest = None
    for card in cards:
        lacking = 0
        for colour, price in enumerate(CARD_COST[card]):
            short = price - bonuses[colour] - tokens[colour]
            if short > 0:
                lacking += short
        lacking = max(0, lacking - gold)
        if nearest is None or lacking < nearest:
            nearest = lacking
    return NOTHING_IN_SIGHT if nearest is None else nearest


def wasted_last(ranked: Sequence[tuple[float, Action, bool]]) -> list[tuple[float, Action]]:
    """Scores, with every wasted take (flagged ``True``) moved below every other action.

    The wasted takes keep their order and their gaps among themselves (the evaluation still
    chooses the least bad when nothing else is legal): they are shifted together so that the
    best of them scores a point below the worst other action. The order of ``ranked`` is kept.
    """
    kept = [score for score, _, wasted in ranked if not wasted]
    given_back = [score for score, _, wasted in ranked if wasted]
    if not kept or not given_back:
        return [(score, action) for score, action, _ in ranked]
    shift = max(0.0, max(given_back) - min(kept) + 1.0)
    return [(score - shift if wasted else score, action) for score, action, wasted in ranked]


def progressing(ranked: Sequence[tuple[float, Action, bool]]) -> list[tuple[float, Action]]:
    """The actions that are no wasted take, with their scores; all of them if every one is."""
    kept = [(score, action) for score, action, wasted in ranked if not wasted]
    return kept or [(score, action) for score, action, _ in ranked]
