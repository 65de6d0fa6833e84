"""What each viewer may see: no deck contents or order, no one else's blind reserves.

Rulebook: "The top card from any one of the three level decks, without revealing it to other
players." "Cards reserved from the top of a deck are never shown to other players." "When taken
from a face-up position, the card itself is known." "The tokens owned by a player must be visible
by all players at all times." "The bonuses and prestige points granted by each card must be
visible to all at all times." Design ("Hidden information"): private are the seed, deck order,
the card under any deck, cards reserved blind from a deck (their owner sees them).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from games.engine import State, apply_action, initial_state, legal_actions, new_game, view
from games.engine.splendor.actions import BuyCard, ReserveFromDeck
from tests.engine.positions import hand, noble_where, position, take

VIEWERS: list[int | None] = [0, 1, None]

FACE_UP_RESERVE = 42
BLIND_RESERVE = 61
UNDER_IT = 62


def with_reserves(blind: int = BLIND_RESERVE, deck_top: int = UNDER_IT) -> State:
    """Seat 1 reserved one card from the board and one unseen from the level 2 deck."""
    return position(
        deck_tops={2: [deck_top]},
        hands=[
            hand({"red": 1}, cards=[3]),
            hand(
                {"blue": 2, "gold": 2}, cards=[10], reserved=[FACE_UP_RESERVE, blind], blind=[blind]
            ),
        ],
        nobles=[
            noble_where(white=4, blue=4),
            noble_where(green=4, red=4),
            noble_where(red=4, black=4),
        ],
    )


def card_dicts(data: Any) -> Iterator[dict[str, Any]]:
    """Every card spelled out anywhere in a view (a dict with a cost is a card)."""
    if isinstance(data, dict):
        if "cost" in data:
            yield data
        for value in data.values():
            yield from card_dicts(value)
    elif isinstance(data, list):
        for item in data:
            yield from card_dicts(item)


def secret_cards(state: State, viewer: int | None) -> set[int]:
    """The cards ``viewer`` must not see: every deck, and other players' blind reserves."""
    secret = {card for deck in state.decks for card in deck}
    for seat, player in enumerate(state.players):
        if seat != viewer:
            secret |= set(player.blind)
    return secret


def test_the_view_shows_only_how_many_cards_each_deck_holds() -> None:
    state = with_reserves()
    for viewer in VIEWERS:
        assert view(state, viewer)["decks"] == [len(deck) for deck in state.decks]


def test_the_view_does_not_depend_on_the_order_of_the_decks() -> None:
    one = position(deck_tops={1: [30, 31], 2: [60], 3: [88]})
    other = position(deck_tops={1: [31, 30], 2: [69], 3: [80]})
    assert one.decks != other.decks
    for viewer in VIEWERS:
        assert view(one, viewer) == view(other, viewer)


def test_other_players_see_only_the_level_of_a_blind_reserve() -> None:
    reserved = view(with_reserves(), 0)["players"][1]["reserved"]
    assert reserved[1] == {"hidden": True, "level": 2}


def test_the_owner_sees_their_own_blind_reserve() -> None:
    reserved = view(with_reserves(), 1)["players"][1]["reserved"]
    assert [card["id"] for card in reserved] == [FACE_UP_RESERVE, BLIND_RESERVE]
    assert reserved[1]["level"] == 2
    assert "cost" in reserved[1]


def test_the_owner_is_told_which_of_their_reserves_came_blind_from_a_deck() -> None:
    reserved = view(with_reserves(), 1)["players"][1]["reserved"]
    assert "blind" not in reserved[0]
    assert reserved[1]["blind"] is True


def test_how_many_players_passed_this_round_is_public() -> None:
    state = position(passes_this_round=1, current=1)
    for viewer in VIEWERS:
        assert view(state, viewer)["passes_this_round"] == 1


def test_a_spectator_sees_no_blind_reserve() -> None:
    reserved = view(with_reserves(), None)["players"][1]["reserved"]
    assert reserved[1] == {"hidden": True, "level": 2}


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_reserve_from_the_board_stays_visible_to_everyone(viewer: int | None) -> None:
    reserved = view(with_reserves(), viewer)["players"][1]["reserved"]
    assert reserved[0]["id"] == FACE_UP_RESERVE
    assert reserved[0]["cost"] == {"red": 5}


@pytest.mark.parametrize("viewer", [0, None])
def test_the_view_does_not_tell_which_card_was_reserved_blind(viewer: int | None) -> None:
    one = with_reserves(blind=BLIND_RESERVE, deck_top=UNDER_IT)
    other = with_reserves(blind=UNDER_IT, deck_top=BLIND_RESERVE)
    assert view(one, viewer) == view(other, viewer)
    assert view(one, 1) != view(other, 1)


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_view_holds_no_card_of_any_deck_or_of_another_players_blind_reserve(
    viewer: int | None,
) -> None:
    state = with_reserves()
    shown = {card["id"] for card in card_dicts(view(state, viewer))}
    assert shown
    assert not shown & secret_cards(state, viewer)


def test_no_view_of_a_played_game_ever_holds_a_secret_card() -> None:
    state = initial_state(new_game("splendor", 3, 2024))
    for step in range(120):
        if state.phase == "game_over":
            break
        actions = legal_actions(state)
        blind = [action for action in actions if isinstance(action, ReserveFromDeck)]
        state = apply_action(state, blind[0] if blind and step % 3 == 0 else actions[-1])
        for viewer in [None, *range(3)]:
            data = view(state, viewer)
            shown = {card["id"] for card in card_dicts(data)}
            assert not shown & secret_cards(state, viewer), (step, viewer)
    assert any(player.blind for player in state.players)


def test_a_blind_reserve_is_shown_to_all_once_it_is_bought() -> None:
    state = position(
        hands=[
            hand(),
            hand(
                {"white": 1, "blue": 4, "green": 2}, reserved=[BLIND_RESERVE], blind=[BLIND_RESERVE]
            ),
        ],
        current=1,
    )
    assert view(state, 0)["players"][1]["reserved"] == [{"hidden": True, "level": 2}]
    after = apply_action(state, BuyCard(BLIND_RESERVE))
    for viewer in VIEWERS:
        seat_one = view(after, viewer)["players"][1]
        assert [card["id"] for card in seat_one["cards"]] == [BLIND_RESERVE]
        assert seat_one["reserved"] == []


@pytest.mark.parametrize("viewer", VIEWERS)
def test_every_players_tokens_cards_bonuses_points_and_nobles_are_public(
    viewer: int | None,
) -> None:
    noble = noble_where(white=3, blue=3, green=3)
    state = position(
        hands=[
            hand({"red": 2, "gold": 1}, cards=[7, 15], nobles=[noble]),
            hand({"blue": 3}, cards=[73]),
        ],
    )
    players = view(state, viewer)["players"]
    assert players[0]["tokens"] == {"red": 2, "gold": 1}
    assert players[0]["token_count"] == 3
    assert [card["id"] for card in players[0]["cards"]] == [7, 15]
    assert players[0]["bonuses"] == {"white": 1, "blue": 1}
    assert players[0]["points"] == 1 + 1 + 3
    assert [item["id"] for item in players[0]["nobles"]] == [noble]
    assert players[1]["tokens"] == {"blue": 3}
    assert players[1]["points"] == 5


def test_the_board_supply_and_nobles_are_public() -> None:
    state = with_reserves()
    for viewer in VIEWERS:
        data = view(state, viewer)
        assert [[card["id"] for card in row] for row in data["board"]] == [
            list(row) for row in state.board
        ]
        assert data["supply"]["gold"] == state.supply[5]
        assert [noble["id"] for noble in data["nobles"]] == list(state.nobles)


def test_the_view_is_plain_json() -> None:
    state = apply_action(with_reserves(), take("white", "blue", "green"))
    for viewer in VIEWERS:
        data = view(state, viewer)
        assert json.loads(json.dumps(data)) == data
