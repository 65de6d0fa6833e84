"""The engine's own copy of the Splendor Duel data against the invariants of the published game.

The invariants are written out here (from the data README), not read from any data file: the
tests check ``games.engine.duel.catalogue`` on its own.
"""

from __future__ import annotations

import itertools
from collections import Counter

from games.engine.duel.catalogue import (
    CARD_IDS_BY_LEVEL,
    CARDS,
    JOKER,
    NO_COLOUR,
    PRIVILEGES,
    ROYALS,
    SPIRAL,
    TOKEN_COUNTS,
)
from games.engine.duel.tokens import COLOUR_NAMES

CARDS_PER_LEVEL = {1: 30, 2: 24, 3: 13}
TOTAL_CROWNS = 28
TOTAL_POINTS = 92
GEM_COLOURS = range(5)
ABILITIES = {"none", "extra_turn", "take_token", "privilege", "steal"}


def test_there_are_67_cards_30_24_13_at_levels_1_2_3() -> None:
    assert len(CARDS) == 67
    assert Counter(card.level for card in CARDS) == CARDS_PER_LEVEL


def test_a_card_id_is_its_index_and_levels_are_contiguous() -> None:
    assert [card.id for card in CARDS] == list(range(67))
    assert {
        1: tuple(range(30)),
        2: tuple(range(30, 54)),
        3: tuple(range(54, 67)),
    } == CARD_IDS_BY_LEVEL


def test_only_level_2_has_double_bonus_cards() -> None:
    doubles = [card for card in CARDS if card.bonus == 2]
    assert doubles
    assert {card.level for card in doubles} == {2}


def test_cards_hold_28_crowns_and_92_points_in_total() -> None:
    assert sum(card.crowns for card in CARDS) == TOTAL_CROWNS
    assert sum(card.points for card in CARDS) == TOTAL_POINTS


def test_a_bonus_colour_is_a_gem_colour_joker_or_none_with_a_matching_bonus_count() -> None:
    for card in CARDS:
        assert card.colour in (*GEM_COLOURS, JOKER, NO_COLOUR)
        if card.colour == NO_COLOUR:
            assert card.bonus == 0, card
        else:
            assert card.bonus in (1, 2), card


def test_every_ability_is_one_of_the_five_known_ones() -> None:
    assert {card.ability for card in CARDS} == ABILITIES


def test_the_gem_ability_is_only_on_cards_with_a_gem_colour() -> None:
    for card in CARDS:
        if card.ability == "take_token":
            assert card.colour in GEM_COLOURS, card


def test_costs_are_six_counts_of_gems_and_pearl_and_never_nothing() -> None:
    for card in CARDS:
        assert len(card.cost) == 6, card
        assert min(card.cost) >= 0, card
        assert sum(card.cost) > 0, card


def test_no_two_cards_are_identical() -> None:
    facts = [card[1:] for card in CARDS]
    assert len(set(facts)) == len(facts)


def test_each_gem_colour_has_the_same_number_of_cards_at_each_level() -> None:
    for level in (1, 2, 3):
        counts = Counter(card.colour for card in CARDS if card.level == level)
        assert len({counts[colour] for colour in GEM_COLOURS}) == 1, (level, counts)


def test_there_are_4_royals_2_points_with_steal_extra_turn_privilege_and_3_plain() -> None:
    assert [royal.id for royal in ROYALS] == [0, 1, 2, 3]
    assert sorted((royal.points, royal.ability) for royal in ROYALS) == [
        (2, "extra_turn"),
        (2, "privilege"),
        (2, "steal"),
        (3, "none"),
    ]


def test_there_are_25_tokens_4_of_each_gem_2_pearls_and_3_gold() -> None:
    assert dict(zip(COLOUR_NAMES, TOKEN_COUNTS, strict=True)) == {
        "white": 4,
        "blue": 4,
        "green": 4,
        "red": 4,
        "black": 4,
        "pearl": 2,
        "gold": 3,
    }
    assert sum(TOKEN_COUNTS) == 25


def test_there_are_3_privileges() -> None:
    assert PRIVILEGES == 3


def test_the_spiral_visits_every_space_once_starting_at_the_centre() -> None:
    assert len(SPIRAL) == 25
    assert sorted(SPIRAL) == [(row, column) for row in range(5) for column in range(5)]
    assert SPIRAL[0] == (2, 2)


def test_each_step_of_the_spiral_goes_to_a_neighbouring_space() -> None:
    for (row, column), (next_row, next_column) in itertools.pairwise(SPIRAL):
        assert abs(row - next_row) + abs(column - next_column) == 1


def test_the_spiral_winds_outward_clockwise() -> None:
    # Clockwise on a board drawn row 0 at the top: each turn is a right turn of the path.
    turns = []
    for first, second, third in zip(SPIRAL, SPIRAL[1:], SPIRAL[2:], strict=False):
        heading = (second[0] - first[0], second[1] - first[1])
        after = (third[0] - second[0], third[1] - second[1])
        cross = heading[1] * after[0] - heading[0] * after[1]
        if cross:
            turns.append(cross)
    assert turns
    assert all(turn > 0 for turn in turns)
    distances = [max(abs(row - 2), abs(column - 2)) for row, column in SPIRAL]
    assert distances == sorted(distances)
