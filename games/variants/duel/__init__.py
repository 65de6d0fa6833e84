"""Splendor Duel: everything of it the shared layers need, as one ``Game``."""

from __future__ import annotations

from pathlib import Path

from games.bots.duel import expert, features, greedy, random_bot, search
from games.variants.base import ExpertBot, Game
from games.variants.duel import (
    api_actions,
    ending,
    facts,
    forms,
    how_to_play,
    judging,
    mail,
    presenter,
)

EXPERT = ExpertBot(
    seat_rows=features.seat_rows,
    features=features.FEATURES,
    most_seats=2,
    choose=expert.choose,
    network=Path(__file__).with_name("expert.npz"),
    training_iterations=1,
)

GAME = Game(
    variant="duel",
    title="Splendor Duel",
    blurb="The two-player game: take tokens in lines from a 5×5 board; 20 points, 10 crowns "
    "or 10 points in one colour wins.",
    describe_action=presenter.describe_action,
    consequences=presenter.consequences,
    ending=ending.ENDING,
    table=presenter.table,
    table_template="games/duel/table.html",
    partials="games/duel/partials/",
    board_template="games/replay/board_duel.html",
    action_from_form=forms.action_from_form,
    remember_turn=presenter.remember_turn,
    parse_api_action=api_actions.parse_action,
    action_schema=api_actions.DUEL_ACTION_SCHEMA,
    bots={
        "random": random_bot.choose,
        "greedy": greedy.choose,
        "search": search.choose,
        "expert": EXPERT.play,
    },
    expert=EXPERT,
    analytics=facts.ANALYTICS,
    position_judge=judging.judge(EXPERT.network),
    mail_position=mail.position,
    card_words=mail.card_words,
    how_to_play=how_to_play.HOW_TO_PLAY,
)
