"""A cheap playout policy: the moves the search bot imagines every player making.

It must be fast (it runs thousands of times per decision) and play plausibly, so it scores the
legal actions with a few sums instead of applying them. It picks a target: the card, face up or
in hand, with the best worth (points and bonus) per turn still needed to afford it; it buys the
best card it can afford when that card is worth it, otherwise takes tokens the target lacks,
reserving the target when no token helps; a take over ten tokens that brings nothing the
target lacks comes last (``games.bots.progress``). Returns give back what the target needs least;
noble choices take the first noble offered (every noble is worth the same).
"""

from __future__ import annotations

import random

from games.bots.evaluation import CARD_COLOUR, CARD_COST, CARD_POINTS, NOBLE_REQUIRES
from games.engine import Action, State, legal_actions
from games.engine.splendor.actions import (
    BuyCard,
    ChooseNoble,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    TakeGems,
)
from games.engine.splendor.state import CHOOSE_NOBLE, RETURN_TOKENS, TOKEN_LIMIT, WINNING_POINTS

_BONUS_WORTH = 1.2
"""What a card's bonus adds to its worth early in the game, in points."""
_WASTED_TAKE = -4.0
"""A take over ten tokens that brings nothing the target lacks: below every other action."""
_DECAY = 0.5
_DECAY_BY_TURNS: tuple[float, ...] = tuple(_DECAY**turns for turns in range(40))


class Plan:
    """The acting player's target card and what it still lacks, computed once per decision."""

    __slots__ = ("due", "lacks", "stage", "target", "wants")

    def __init__(self, state: State) -> None:
        player = state.players[state.current]
        bonuses = player.bonuses
        tokens = player.tokens
        gold = tokens[5]
        top = max(other.points for other in state.players)
        self.stage = 1.0 - 0.7 * min(top, WINNING_POINTS) / WINNING_POINTS
        noble_colours = [0] * 5
        for noble in state.nobles:
            for colour, need in enumerate(NOBLE_REQUIRES[noble]):
                if need > bonuses[colour]:
                    noble_colours[colour] += 1
        candidates = [card for row in state.board for card in row if card is not None]
        candidates.extend(player.reserved)
        best = -1.0
        self.target = -1
        self.lacks: tuple[int, ...] = (0, 0, 0, 0, 0)
        self.due: tuple[int, ...] = (0, 0, 0, 0, 0)
        wants = [0.0] * 5
        stage_worth = self.stage * _BONUS_WORTH
        white_bonus, blue_bonus, green_bonus, red_bonus, black_bonus = bonuses
        white_held, blue_held, green_held, red_held, black_held, _ = tokens
        # Unrolled over the five colours: this runs for every card at every playout step.
        for card in candidates:
            white, blue, green, red, black = CARD_COST[card]
            white = white - white_bonus if white > white_bonus else 0
            blue = blue - blue_bonus if blue > blue_bonus else 0
            green = green - green_bonus if green > green_bonus else 0
            red = red - red_bonus if red > red_bonus else 0
            black = black - black_bonus if black > black_bonus else 0
            spend = white + blue + green + red + black
            if spend > TOKEN_LIMIT:
                continue
            due = (white, blue, green, red, black)
            missing = (
                white - white_held if white > white_held else 0,
                blue - blue_held if blue > blue_held else 0,
                green - green_held if green > green_held else 0,
                red - red_held if red > red_held else 0,
                black - black_held if black > black_held else 0,
            )
            short = missing[0] + missing[1] + missing[2] + missing[3] + missing[4] - gold
            worth = CARD_POINTS[card] + stage_worth * (
                1.0 + 0.25 * noble_colours[CARD_COLOUR[card]]
            )
            value = (
                worth * _DECAY_BY_TURNS[(short + 2) // 3 if short > 0 else 0] / (1.0 + 0.1 * spend)
            )
            if short + gold > 0:
                share = value * 0.3
                for colour in range(5):
                    if missing[colour]:
                        wants[colour] += share
            if value > best:
                best = value
                self.target = card
                self.lacks = missing
                self.due = due
        self.wants = wants


def choose(state: State, rng: random.Random) -> Action:
    """The policy's action for the player to act (any phase but the end of the game)."""
    phase = state.phase
    if phase == RETURN_TOKENS:
        return tokens_to_return(state)
    if phase == CHOOSE_NOBLE:
        return ChooseNoble(state.pending_nobles[0])
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]
    scores = score_actions(state, actions, Plan(state))
    best = max(scores)
    choices = [action for action, score in zip(actions, scores, strict=True) if score == best]
    return choices[0] if len(choices) == 1 else rng.choice(choices)


def score_actions(state: State, actions: list[Action], plan: Plan) -> list[float]:
    """A quick score per main-phase action: higher is better (comparable only within a call)."""
    player = state.players[state.current]
    held = sum(player.tokens)
    lacks = plan.lacks
    wants = plan.wants
    stage = plan.stage
    scores = []
    for action in actions:
        kind = type(action)
        if kind is TakeGems:
            gems = action.gems  # type: ignore[union-attr]
            score = 0.0
            if len(gems) == 2 and gems[0] == gems[1]:
                colour = gems[0]
                score = min(lacks[colour], 2) * 1.0 + wants[colour] * 0.5
            else:
                for colour in gems:
                    score += (1.0 if lacks[colour] else 0.0) + wants[colour] * 0.5
            over = held + len(gems) - TOKEN_LIMIT
            if over > 0:
                # The return gives back what the target lacks least: a take over the limit
                # that brings none of what it lacks is given straight back (a wasted take).
                if any(lacks[colour] for colour in gems):
                    score -= 0.8 * over
                else:
                    score = _WASTED_TAKE
            scores.append(score)
        elif kind is BuyCard:
            card = action.card  # type: ignore[union-attr]
            score = 3.0 + 2.0 * CARD_POINTS[card] + 1.5 * stage
            if card == plan.target:
                score += 1.0
            scores.append(score)
        elif kind is ReserveCard:
            card = action.card  # type: ignore[union-attr]
            score = 0.2 if card == plan.target and CARD_POINTS[card] >= 3 else -1.0
            scores.append(score + (0.3 if held < TOKEN_LIMIT else -1.0))
        elif kind is ReserveFromDeck:
            scores.append(-2.0)
        else:
            scores.append(-3.0)
    return scores


def tokens_to_return(state: State) -> ReturnTokens:
    """Give back the tokens the target lacks least: surplus colours first, gold last."""
    plan = Plan(state)
    tokens = list(state.players[state.current].tokens)
    excess = sum(tokens) - TOKEN_LIMIT
    returned = [0] * 6
    due = plan.due
    wants = plan.wants
    while excess > 0:
        colour = -1
        lowest = 1e9
        for candidate in range(5):
            if tokens[candidate]:
                keep = (2.0 if due[candidate] >= tokens[candidate] else 0.0) + wants[candidate]
                if keep < lowest:
                    lowest = keep
                    colour = candidate
        if colour < 0:
            colour = 5
        tokens[colour] -= 1
        returned[colour] += 1
        excess -= 1
    return ReturnTokens(tuple(returned))
