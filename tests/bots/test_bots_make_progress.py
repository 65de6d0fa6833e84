"""Every bot level of both games makes progress: a game between bots ends in a bounded length.

A Duel between two greedy bots once lasted 1,183 actions (504 token takes, 483 discards), the bot
at the token limit taking tokens only to give them back; another never ended. A person facing
such a bot watches it waste turn after turn, and a game between bots holds a worker for ten
times its share. The bots now count a take they must give straight back as no gain
(``games.bots.progress``, docs/decisions/0141-bots-make-progress.md).

The search and Expert bots play here on the smallest budgets (their strength is
``benchmarks/bots.py``'s to measure): the search's choice of candidates, not its depth nor its
evaluation, is what keeps them from marking time.
"""

from __future__ import annotations

import collections
import itertools

import pytest

import games.engine as engine
from games.bots import BOT_LEVELS
from games.engine import State
from games.engine.duel.actions import BuyCard as DuelBuyCard
from games.engine.duel.actions import DiscardTokens
from games.engine.splendor.actions import BuyCard
from games.variants import choose_bot_action
from tests.bots.positions import build_duel_state, build_state

LONGEST_GAME = 400
"""The most actions a game between bots may take, in either game and at any table: well above
the longest games of bots that make progress (over 200 deck seeds, a Duel between random bots
takes 172 actions at the median and 268 at the most, a base game of four random bots 165 and
207, two greedy Duel bots 99 and 122), and well below the 1,183 actions of the game that marked
time (docs/decisions/0141-bots-make-progress.md)."""

SEARCH_ITERATIONS = {"splendor": 12, "duel": 1}
"""The search and Expert bots' smallest sensible budget in each game: iterations of the base
game's tree search, samples per candidate of Duel's lookahead."""


def play(variant: str, levels: tuple[str, ...], seed: int, bot_seed: int) -> tuple[State, int]:
    """A game between the bots of ``levels`` (seat by seat), from the deck of ``seed``, the n-th
    choice's bot seed ``bot_seed + n``; stopped one action past :data:`LONGEST_GAME`."""
    state = engine.initial_state(engine.new_game(variant, len(levels), seed))
    actions = 0
    while engine.outcome(state) is None and actions <= LONGEST_GAME:
        seat = state.current
        action = choose_bot_action(
            levels[seat],
            engine.view(state, seat),
            seed=bot_seed + actions,
            iterations=SEARCH_ITERATIONS[variant],
        )
        state = engine.apply_action(state, action)
        actions += 1
    return state, actions


def test_two_greedy_duel_bots_no_longer_mark_time_at_the_token_limit() -> None:
    # The game of the report: deck seed 11, the n-th choice seeded 11 * 1000 + n.
    state = engine.initial_state(engine.new_game("duel", 2, 11))
    kinds: collections.Counter[type] = collections.Counter()
    while engine.outcome(state) is None and sum(kinds.values()) <= LONGEST_GAME:
        seat = state.current
        action = choose_bot_action(
            "greedy", engine.view(state, seat), seed=11 * 1000 + sum(kinds.values())
        )
        kinds[type(action)] += 1
        state = engine.apply_action(state, action)
    assert engine.outcome(state) is not None
    assert sum(kinds.values()) <= LONGEST_GAME
    assert kinds[DiscardTokens] <= 10


def test_a_duel_between_greedy_bots_that_never_ended_ends() -> None:
    # Deck seed 20240748 of benchmarks/bots.py: both hands full and three cards reserved, the
    # bots took and gave back tokens for ever, though one of them could buy two cards.
    state, actions = play("duel", ("greedy", "greedy"), 20_240_748, 20_240_748 * 10_000)
    assert engine.outcome(state) is not None
    assert actions <= LONGEST_GAME


def at_the_limit_able_to_buy() -> dict[str, State]:
    """A position of each game in which the player to act holds ten tokens and can buy, and
    the bots used to take tokens and give them back: the evaluation liked the hand it held."""
    base = build_state(
        hands=[
            {
                "tokens": {"white": 3, "blue": 2, "red": 1, "black": 2, "gold": 2},
                "cards": [3],
                "reserved": [5, 40],
            },
            {"tokens": {"green": 2, "red": 1, "black": 2}, "cards": [18, 27, 35]},
        ],
        board=[[13, 14, 26, 31], [59, 47, 45, 60], [72, 81, 86, 77]],
        nobles=[1, 2, 6],
    )
    duel = build_duel_state(
        hands=[
            {"tokens": {"white": 2, "black": 3, "pearl": 2, "gold": 3}, "reserved": [63]},
            {"tokens": {"white": 1, "blue": 3, "green": 3, "red": 3}},
        ],
        pyramid=[[2, 26, 7, 17, 22], [43, 42, 53, 52], [64, 61, 55]],
    )
    return {"splendor": base, "duel": duel}


@pytest.mark.parametrize("variant", ["splendor", "duel"])
@pytest.mark.parametrize("level", ["greedy", "search", "expert"])
def test_a_bot_at_the_token_limit_buys_rather_than_take_tokens_it_must_give_back(
    variant: str, level: str
) -> None:
    state = at_the_limit_able_to_buy()[variant]
    assert sum(state.players[0].tokens) == 10
    for seed in range(4):
        action = choose_bot_action(
            level, engine.view(state, 0), seed=seed, iterations=SEARCH_ITERATIONS[variant]
        )
        assert isinstance(action, BuyCard | DuelBuyCard), action


# Every pairing of two levels, in both games: a hundred games each for the cheap levels, a few
# for the search bot (a Duel with it costs seconds). The Expert is that search judged by its
# network, so fewer of its games suffice: against each level in the base game, against greedy
# and itself in Duel (a Duel between Experts costs about five seconds). Tables of three and
# four of the base game: each cheap level alone and mixed, and the searching bots among them.
CHEAP = ("random", "greedy")
SEARCHING = ("random", "greedy", "search")
PAIRINGS = [
    pytest.param(variant, table, seeds, id=f"{variant}-{'-'.join(table)}")
    for variant in ("splendor", "duel")
    for table, seeds in [
        *((pair, 100) for pair in itertools.combinations_with_replacement(CHEAP, 2)),
        *(
            (pair, 10 if variant == "splendor" else 1)
            for pair in itertools.combinations_with_replacement(SEARCHING, 2)
            if "search" in pair
        ),
        *(
            ((level, "expert"), 4 if variant == "splendor" else 1)
            for level in (BOT_LEVELS if variant == "splendor" else ("greedy", "expert"))
        ),
    ]
]
TABLES = [
    pytest.param("splendor", table, seeds, id=f"splendor-{'-'.join(table)}")
    for table, seeds in [
        (("random", "random", "random"), 20),
        (("random", "greedy", "greedy"), 20),
        (("greedy", "greedy", "greedy"), 20),
        (("random", "greedy", "search"), 6),
        (("random", "random", "random", "random"), 20),
        (("greedy", "random", "greedy", "random"), 20),
        (("greedy", "greedy", "greedy", "greedy"), 20),
        (("search", "greedy", "search", "random"), 4),
        (("expert", "greedy", "search", "random"), 2),
    ]
]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "levels", "seeds"), PAIRINGS + TABLES)
def test_games_between_bots_end_within_the_bound(
    variant: str, levels: tuple[str, ...], seeds: int
) -> None:
    lengths = []
    for seed in range(seeds):
        # The seats turn from game to game, so each level plays from each seat.
        turn = seed % len(levels)
        seated = levels[turn:] + levels[:turn]
        state, actions = play(variant, seated, seed, seed * 1000)
        assert engine.outcome(state) is not None, f"seed {seed}: {actions} actions, unfinished"
        lengths.append(actions)
    assert max(lengths) <= LONGEST_GAME
