"""Turn order, passing and the end of the game.

Rulebook: "Play proceeds clockwise." "When any player reaches 15 or more prestige points, the
current round is completed so that every player has played the same number of turns." "A player
who triggers the end game may not necessarily win if another player surpasses them in the same
final round." "In case of a tie, the player who has purchased the fewest development cards wins."
"Don't forget to count your nobles." 001: "If still tied, players share victory." FAQ: with no
action possible, the player passes. Design: pass only when no other action is legal; if every
player passes in one round, the game ends at the end of that round and is scored as usual.
"""

from __future__ import annotations

import pytest

from games.engine import (
    Action,
    IllegalAction,
    State,
    acting_seat,
    apply_action,
    initial_state,
    legal_actions,
    new_game,
    outcome,
)
from games.engine.splendor.actions import BuyCard, Pass, ReserveFromDeck, ReturnTokens
from games.engine.splendor.state import GAME_OVER, MAIN
from tests.engine.positions import (
    Hand,
    card_where,
    cards_where,
    hand,
    noble_where,
    play,
    points_of,
    position,
    take,
    tokens,
)

# Cards whose points make up the scores below (see each position's comment).
FIVE_POINTS = cards_where(level=3, points=5)
FOUR_POINTS = cards_where(level=3, points=4)
THREE_POINTS_WHITE = card_where(level=2, colour="white", points=3)
TWO_POINTS_FIVE_BLUE = card_where(level=2, cost={"blue": 5})
TWO_POINTS_FIVE_WHITE = card_where(level=2, cost={"white": 5})
ONE_POINT_LEVEL_ONE = cards_where(level=1, points=1)


def test_the_seats_play_in_order_and_the_round_wraps_around() -> None:
    state = initial_state(new_game("splendor", 4, 3))
    seen = []
    for _ in range(9):
        seen.append(state.current)
        state = apply_action(state, legal_actions(state)[0])
    assert seen == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert state.turn == 9


def test_the_acting_seat_is_the_current_player() -> None:
    state = position(3, current=2, turn=2)
    assert acting_seat(state) == 2


def close_race(players: int = 2, trigger_seat: int = 0, current: int | None = None) -> State:
    """Seat ``trigger_seat`` has 13 points (5 + 5 + 3) and 4 blue tokens: buying the 2-point card
    costing 5 blue (with its one blue bonus) takes it to 15. Seat 1, when it is not the trigger,
    has 14 points (5 + 5 + 4) and 4 white tokens to buy the 2-point card costing 5 white (with its
    one white bonus): 16."""
    assert points_of(TWO_POINTS_FIVE_BLUE) == 2
    trigger = hand(
        {"blue": 4},
        cards=[FIVE_POINTS[0], FIVE_POINTS[1], THREE_POINTS_WHITE],
    )
    rival = hand({"white": 4}, cards=[FIVE_POINTS[3], FIVE_POINTS[4], FOUR_POINTS[1]])
    hands = [hand() for _ in range(players)]
    hands[trigger_seat] = trigger
    if trigger_seat != 1:
        hands[1] = rival
    return position(
        players,
        board={2: [TWO_POINTS_FIVE_BLUE, TWO_POINTS_FIVE_WHITE, 40, 41]},
        hands=hands,
        nobles=list(range(players + 1)),
        current=trigger_seat if current is None else current,
    )


def test_the_close_race_position_scores_as_described() -> None:
    state = close_race()
    assert [player.points for player in state.players] == [13, 14]
    assert [player.bonuses[1] for player in state.players] == [1, 0]
    assert [player.bonuses[0] for player in state.players] == [2, 1]


def test_reaching_fifteen_points_does_not_end_the_game_before_the_round_is_complete() -> None:
    state = apply_action(close_race(), BuyCard(TWO_POINTS_FIVE_BLUE))
    assert state.players[0].points == 15
    assert state.phase == MAIN
    assert state.current == 1
    assert outcome(state) is None
    assert legal_actions(state)


def test_the_round_is_completed_so_that_every_player_has_as_many_turns() -> None:
    state = apply_action(close_race(3, trigger_seat=1, current=0), take("white", "blue", "green"))
    state = apply_action(state, BuyCard(TWO_POINTS_FIVE_BLUE))
    assert state.players[1].points == 15
    assert state.current == 2
    assert outcome(state) is None
    state = apply_action(state, take("white", "blue", "green"))
    assert state.phase == GAME_OVER
    assert state.turn == 3
    result = outcome(state)
    assert result is not None
    assert result.winners == (1,)
    assert result.ended_by == "reached_points"


def test_the_last_seat_reaching_fifteen_ends_the_game_at_once() -> None:
    state = play(close_race(trigger_seat=1, current=0), take("white", "green", "red"))
    state = apply_action(state, BuyCard(TWO_POINTS_FIVE_BLUE))
    assert state.phase == GAME_OVER
    result = outcome(state)
    assert result is not None
    assert result.winners == (1,)


def test_a_later_player_in_the_final_round_can_overtake_the_one_who_triggered_the_end() -> None:
    state = play(close_race(), BuyCard(TWO_POINTS_FIVE_BLUE), BuyCard(TWO_POINTS_FIVE_WHITE))
    assert state.phase == GAME_OVER
    result = outcome(state)
    assert result is not None
    assert result.points == (15, 16)
    assert result.winners == (1,)
    assert result.decided_by == "points"


def test_the_player_who_triggered_the_end_wins_when_no_one_overtakes() -> None:
    state = play(close_race(), BuyCard(TWO_POINTS_FIVE_BLUE), take("red", "green", "black"))
    result = outcome(state)
    assert result is not None
    assert result.points == (15, 14)
    assert result.winners == (0,)


def last_turn_of_the_round(zero: Hand, one: Hand) -> State:
    """Seat 1 is to play the last turn of a round."""
    return position(hands=[zero, one], current=1)


def test_a_tie_on_points_goes_to_the_player_with_fewer_purchased_cards() -> None:
    # 5 + 5 + 4 + 1 = 15 with four cards against 5 + 5 + 5 = 15 with three.
    state = last_turn_of_the_round(
        hand(cards=[FIVE_POINTS[0], FIVE_POINTS[1], FOUR_POINTS[0], ONE_POINT_LEVEL_ONE[0]]),
        hand(cards=[FIVE_POINTS[2], FIVE_POINTS[3], FIVE_POINTS[4]]),
    )
    result = outcome(apply_action(state, take("white", "blue", "green")))
    assert result is not None
    assert result.points == (15, 15)
    assert result.cards_bought == (4, 3)
    assert result.winners == (1,)
    assert result.decided_by == "fewest_cards"


def test_the_tie_break_holds_whoever_has_fewer_cards_whatever_the_seat() -> None:
    state = last_turn_of_the_round(
        hand(cards=[FIVE_POINTS[2], FIVE_POINTS[3], FIVE_POINTS[4]]),
        hand(cards=[FIVE_POINTS[0], FIVE_POINTS[1], FOUR_POINTS[0], ONE_POINT_LEVEL_ONE[0]]),
    )
    result = outcome(apply_action(state, take("white", "blue", "green")))
    assert result is not None
    assert result.winners == (0,)


def test_reserved_cards_do_not_count_as_purchased_in_the_tie_break() -> None:
    state = last_turn_of_the_round(
        hand(cards=[FIVE_POINTS[0], FIVE_POINTS[1], FOUR_POINTS[0], ONE_POINT_LEVEL_ONE[0]]),
        hand(cards=[FIVE_POINTS[2], FIVE_POINTS[3], FIVE_POINTS[4]], reserved=[40, 41, 42]),
    )
    result = outcome(apply_action(state, take("white", "blue", "green")))
    assert result is not None
    assert result.cards_bought == (4, 3)
    assert result.winners == (1,)


def test_a_tie_on_points_and_cards_is_a_shared_win() -> None:
    # 5 + 5 + 4 + 1 = 15 with four cards each.
    state = last_turn_of_the_round(
        hand(cards=[FIVE_POINTS[0], FIVE_POINTS[1], FOUR_POINTS[0], ONE_POINT_LEVEL_ONE[0]]),
        hand(cards=[FIVE_POINTS[2], FIVE_POINTS[3], FOUR_POINTS[1], ONE_POINT_LEVEL_ONE[1]]),
    )
    result = outcome(apply_action(state, take("white", "blue", "green")))
    assert result is not None
    assert result.winners == (0, 1)
    assert result.decided_by == "shared"


def test_noble_points_count_in_the_final_score() -> None:
    # Seat 0: 5 + 5 + 3 from cards and 3 from a noble (4 white and 4 blue bonuses) = 16 with
    # eleven cards; seat 1: 5 + 5 + 4 + 1 = 15 with four cards.
    white = cards_where(level=1, colour="white", points=0)[:4]
    blue = cards_where(level=1, colour="blue", points=0)[:4]
    noble = noble_where(white=4, blue=4)
    state = position(
        hands=[
            hand(
                cards=[*white, *blue, FIVE_POINTS[0], FIVE_POINTS[1], THREE_POINTS_WHITE],
                nobles=[noble],
            ),
            hand(cards=[FIVE_POINTS[2], FIVE_POINTS[3], FOUR_POINTS[0], ONE_POINT_LEVEL_ONE[2]]),
        ],
        current=1,
    )
    result = outcome(apply_action(state, take("white", "blue", "green")))
    assert result is not None
    assert result.points == (16, 15)
    assert result.winners == (0,)


def test_there_is_no_outcome_while_the_game_runs() -> None:
    state = initial_state(new_game("splendor", 2, 1))
    assert outcome(state) is None
    assert outcome(apply_action(state, take("white", "blue", "green"))) is None


def finished() -> State:
    return play(close_race(), BuyCard(TWO_POINTS_FIVE_BLUE), take("red", "green", "black"))


def test_after_the_game_is_over_no_action_is_legal() -> None:
    state = finished()
    assert state.phase == GAME_OVER
    assert legal_actions(state) == []
    assert acting_seat(state) is None


@pytest.mark.parametrize("action", [take("white", "blue", "green"), Pass(), BuyCard(40)])
def test_after_the_game_is_over_every_action_is_refused(action: Action) -> None:
    with pytest.raises(IllegalAction, match="over"):
        apply_action(finished(), action)


def nobody_can_act(seat_one_reserved: tuple[int, ...] = (57, 63, 69)) -> State:
    """No gem left in the supply (each player holds ten), three reserves each, and nothing on
    the board or in hand that either player can afford. Seat 0 has a 1-point card."""
    return position(
        supply={"gold": 5},
        board={1: [30, 12, 36, 21], 2: [41, 49, 62, 60], 3: [70, 74, 78, 82]},
        hands=[
            hand({"white": 4, "blue": 4, "green": 2}, cards=[7], reserved=[45, 51, 73]),
            hand({"green": 2, "red": 4, "black": 4}, reserved=seat_one_reserved),
        ],
    )


def test_a_player_with_no_legal_action_must_pass() -> None:
    state = nobody_can_act()
    assert legal_actions(state) == [Pass()]
    after = apply_action(state, Pass())
    assert after.current == 1
    assert after.players == state.players
    assert after.supply == state.supply


def test_passing_is_refused_while_another_action_is_possible() -> None:
    state = position()
    assert Pass() not in legal_actions(state)
    with pytest.raises(IllegalAction, match="pass only"):
        apply_action(state, Pass())


def test_the_game_ends_at_the_end_of_a_round_in_which_every_player_passed() -> None:
    state = play(nobody_can_act(), Pass())
    assert outcome(state) is None
    assert legal_actions(state) == [Pass()]
    state = apply_action(state, Pass())
    assert state.phase == GAME_OVER
    result = outcome(state)
    assert result is not None
    assert result.ended_by == "all_passed"


def test_a_game_ended_by_passing_is_scored_as_usual() -> None:
    result = outcome(play(nobody_can_act(), Pass(), Pass()))
    assert result is not None
    assert result.points == (1, 0)
    assert result.winners == (0,)


def test_one_player_passing_does_not_end_the_game() -> None:
    # Seat 1 holds only two reserved cards, so it can reserve a third.
    state = play(nobody_can_act(seat_one_reserved=(57, 63)), Pass())
    assert Pass() not in legal_actions(state)
    state = play(state, ReserveFromDeck(1), ReturnTokens(tokens(gold=1)))
    assert state.phase == MAIN
    assert outcome(state) is None
    assert state.current == 0
