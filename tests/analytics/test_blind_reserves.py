"""A card reserved unseen from a deck came into play: bought later, it was in play when bought.

Left out, a card bought from a blind reserve counted as bought but never as in play, and its
purchase rate (bought ÷ games in play) could pass 100%. Each game here is played by a policy
that reserves from a deck whenever it can and buys such a card as soon as it can, so every game
has blind reserves bought from the hand; the variant's fold must count each as in play.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from analytics.variants import analytics_for
from games import engine


def _reserved_ids(state: Any, seat: int) -> set[int]:
    return {
        card["id"] for card in engine.view(state, None, reveal=True)["players"][seat]["reserved"]
    }


def _blind_reserve_game(variant: str, seed: int) -> tuple[dict[str, Any], list[Any], set[int]]:
    """(setup JSON, the actions as logged, the blind-reserved cards that were bought)."""
    setup = engine.new_game(variant, 2, seed)
    state = engine.initial_state(setup)
    rng = random.Random(seed)
    blind: set[int] = set()
    bought_blind: set[int] = set()
    played: list[Any] = []
    while engine.outcome(state) is None and len(played) < 1000:
        options = engine.legal_actions(state)
        spelled = [engine.action_to_json(option) for option in options]
        buys = [
            i
            for i, data in enumerate(spelled)
            if data.get("card") in blind and "buy" in data["type"]
        ]
        reserves = [i for i, data in enumerate(spelled) if data["type"] == "reserve_from_deck"]
        pick = buys[0] if buys else reserves[0] if reserves else rng.randrange(len(options))
        seat = engine.acting_seat(state)
        assert seat is not None
        before = _reserved_ids(state, seat)
        played.append((seat, options[pick], spelled[pick]["type"]))
        state = engine.apply_legal(state, options[pick])
        if pick in reserves:
            blind |= _reserved_ids(state, seat) - before
        elif pick in buys:
            bought_blind.add(spelled[pick]["card"])
    return engine.setup_to_json(setup), played, bought_blind


@pytest.mark.parametrize("variant", ["splendor", "duel"])
def test_a_card_bought_from_a_blind_reserve_came_into_play(variant: str) -> None:
    fold = analytics_for(variant).fold
    bought_blind_in_all: set[int] = set()
    for seed in range(8):
        setup_json, played, bought_blind = _blind_reserve_game(variant, seed)
        facts = fold(setup_json, played)
        bought = {card for card, _seat, _turn in facts.purchases}
        assert bought_blind <= bought
        assert bought <= set(facts.cards_seen), sorted(bought - set(facts.cards_seen))
        assert len(facts.cards_seen) == len(set(facts.cards_seen))
        bought_blind_in_all |= bought_blind
    assert bought_blind_in_all, "the policy never bought a blind reserve: the test proves nothing"
