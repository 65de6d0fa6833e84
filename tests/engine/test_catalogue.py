"""The engine's own copy of the card data against the invariants of the published game.

The invariants (and the transcription errors seen in public copies) are written out here, not
read from any data file: the tests check ``games.engine.splendor.catalogue`` on its own.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from games.engine.splendor.catalogue import CARD_IDS_BY_LEVEL, CARDS, LEVELS, NOBLES, Card
from games.engine.splendor.gems import COLOUR_NAMES

# The order of the cost columns, which is also the colour cycle white → blue → green → red → black.
WHITE, BLUE, GREEN, RED, BLACK = range(5)
COLOURS = (WHITE, BLUE, GREEN, RED, BLACK)

CARDS_PER_LEVEL = {1: 40, 2: 30, 3: 20}
CARDS_PER_COLOUR_PER_LEVEL = {1: 8, 2: 6, 3: 4}
CARDS_PER_COLOUR = 18
POINTS_PER_COLOUR_PER_LEVEL = {
    1: [0, 0, 0, 0, 0, 0, 0, 1],
    2: [1, 1, 2, 2, 2, 3],
    3: [3, 4, 4, 5],
}
COST_COLUMN_SUM_PER_LEVEL = {1: 33, 2: 41, 3: 43}
NOBLE_COUNT = 10
NOBLE_POINTS = 3


def cards_of(level: int, colour: int | None = None) -> list[Card]:
    return [
        card for card in CARDS if card.level == level and (colour is None or card.colour == colour)
    ]


def colour_set(requires: tuple[int, ...]) -> frozenset[int]:
    return frozenset(colour for colour in COLOURS if requires[colour])


def cycle_runs(length: int) -> set[frozenset[int]]:
    """The sets of ``length`` adjacent colours on the cycle white → … → black → white."""
    return {frozenset((start + step) % 5 for step in range(length)) for start in COLOURS}


def costs_of(level: int, colour: int, points: int) -> list[tuple[int, ...]]:
    return [card.cost for card in cards_of(level, colour) if card.points == points]


# The shape of the data ------------------------------------------------------------------------


def test_the_colour_indexes_follow_the_cost_columns_white_blue_green_red_black() -> None:
    assert COLOUR_NAMES[:5] == ("white", "blue", "green", "red", "black")


def test_a_card_id_is_its_index() -> None:
    assert [card.id for card in CARDS] == list(range(len(CARDS)))


def test_a_noble_id_is_its_index() -> None:
    assert [noble.id for noble in NOBLES] == list(range(len(NOBLES)))


def test_every_card_has_a_level_a_gem_colour_and_a_cost_of_five_counts() -> None:
    for card in CARDS:
        assert card.level in (1, 2, 3), card
        assert card.colour in COLOURS, card
        assert len(card.cost) == 5, card
        assert all(type(count) is int and count >= 0 for count in card.cost), card
        assert sum(card.cost) > 0, card


def test_card_ids_by_level_lists_each_levels_cards_in_id_order() -> None:
    assert tuple(LEVELS) == (1, 2, 3)
    for level in LEVELS:
        assert CARD_IDS_BY_LEVEL[level] == tuple(card.id for card in cards_of(level))


# Cards ----------------------------------------------------------------------------------------


def test_there_are_90_cards_40_30_20_at_levels_1_2_3() -> None:
    assert len(CARDS) == 90
    assert Counter(card.level for card in CARDS) == CARDS_PER_LEVEL


@pytest.mark.parametrize("level", [1, 2, 3])
def test_each_level_has_8_6_4_cards_of_each_colour(level: int) -> None:
    counts = Counter(card.colour for card in cards_of(level))
    assert counts == dict.fromkeys(COLOURS, CARDS_PER_COLOUR_PER_LEVEL[level])


def test_there_are_18_cards_of_each_colour() -> None:
    assert Counter(card.colour for card in CARDS) == dict.fromkeys(COLOURS, CARDS_PER_COLOUR)


@pytest.mark.parametrize("colour", COLOURS)
@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_points_of_each_colour_at_each_level_match_the_published_game(
    level: int, colour: int
) -> None:
    points = sorted(card.points for card in cards_of(level, colour))
    assert points == POINTS_PER_COLOUR_PER_LEVEL[level]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_each_cost_column_sums_to_the_same_total_within_a_level(level: int) -> None:
    sums = [sum(card.cost[colour] for card in cards_of(level)) for colour in COLOURS]
    assert sums == [COST_COLUMN_SUM_PER_LEVEL[level]] * 5


def test_no_two_cards_are_identical() -> None:
    faces = [(card.level, card.colour, card.points, card.cost) for card in CARDS]
    duplicates = [face for face, count in Counter(faces).items() if count > 1]
    assert duplicates == []


# Nobles ---------------------------------------------------------------------------------------


def test_there_are_10_nobles_worth_3_points_each() -> None:
    assert len(NOBLES) == NOBLE_COUNT
    assert [noble.points for noble in NOBLES] == [NOBLE_POINTS] * NOBLE_COUNT


def test_five_nobles_need_4_plus_4_and_five_need_3_plus_3_plus_3() -> None:
    shapes = Counter(tuple(sorted(need for need in noble.requires if need)) for noble in NOBLES)
    assert shapes == {(4, 4): 5, (3, 3, 3): 5}
    assert all(len(noble.requires) == 5 for noble in NOBLES)


def test_each_colour_appears_in_exactly_five_nobles() -> None:
    appearances = Counter(colour for noble in NOBLES for colour in colour_set(noble.requires))
    assert appearances == dict.fromkeys(COLOURS, 5)


def test_no_two_nobles_are_identical() -> None:
    assert len({noble.requires for noble in NOBLES}) == NOBLE_COUNT


def test_the_4_plus_4_nobles_are_exactly_the_adjacent_pairs_on_the_colour_cycle() -> None:
    pairs = [colour_set(noble.requires) for noble in NOBLES if max(noble.requires) == 4]
    assert len(pairs) == len(set(pairs)) == 5
    assert set(pairs) == cycle_runs(2)


def test_the_3_plus_3_plus_3_nobles_are_exactly_the_runs_of_three_on_the_colour_cycle() -> None:
    triples = [colour_set(noble.requires) for noble in NOBLES if max(noble.requires) == 3]
    assert len(triples) == len(set(triples)) == 5
    assert set(triples) == cycle_runs(3)


def test_the_colour_cycle_helper_finds_five_distinct_runs() -> None:
    # The two tests above would pass vacuously if the helper were wrong: pin it down.
    adjacent = {
        frozenset(pair) for pair in combinations(COLOURS, 2) if (pair[1] - pair[0]) % 5 in (1, 4)
    }
    assert cycle_runs(2) == adjacent
    assert frozenset({BLACK, WHITE, BLUE}) in cycle_runs(3)
    assert frozenset({WHITE, GREEN}) not in cycle_runs(2)
    assert len(cycle_runs(3)) == 5


# The common transcription errors: our copy must hold the true values ----------------------------


def test_the_level_1_white_card_costs_blue_2_black_2_not_blue_2_green_2() -> None:
    costs = costs_of(1, WHITE, 0)
    assert (0, 2, 0, 0, 2) in costs
    assert (0, 2, 2, 0, 0) not in costs
    assert all(cost != (0, 2, 2, 0, 0) for cost in (card.cost for card in cards_of(1)))


def test_the_level_2_green_1_point_card_costs_white_3_green_2_red_3_not_red_2() -> None:
    costs = costs_of(2, GREEN, 1)
    assert (3, 0, 2, 3, 0) in costs
    assert (3, 0, 2, 2, 0) not in costs


def test_the_4_plus_4_nobles_include_red_black_and_not_green_black() -> None:
    requirements = {noble.requires for noble in NOBLES}
    assert (0, 0, 0, 4, 4) in requirements
    assert (0, 0, 4, 0, 4) not in requirements


def test_the_level_3_red_3_point_card_costs_black_3_not_black_5() -> None:
    costs = costs_of(3, RED, 3)
    assert costs == [(3, 5, 3, 0, 3)]
    assert all(cost[BLACK] != 5 for cost in costs)
