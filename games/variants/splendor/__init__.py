"""Splendor, the base game: everything of it the shared layers need, as one ``Game``."""

from __future__ import annotations

from pathlib import Path

from games.bots import expert, features, greedy, random_bot, search
from games.variants.base import ExpertBot, Game
from games.variants.splendor import (
    api_actions,
    ending,
    facts,
    forms,
    how_to_play,
    judging,
    mail,
    presenter,
    turn_memory,
)

EXPERT = ExpertBot(
    seat_rows=features.seat_rows,
    features=features.FEATURES,
    most_seats=4,
    choose=expert.choose,
    network=Path(__file__).with_name("expert.npz"),
    training_iterations=50,
)

GAME = Game(
    variant="splendor",
    title="Splendor",
    blurb="The base game, for 2 to 4 players: gems, cards and nobles.",
    describe_action=presenter.describe_action,
    consequences=presenter.consequences,
    ending=ending.ENDING,
    table=presenter.table,
    table_template="games/partials/table.html",
    partials="games/partials/",
    board_template="games/replay/board_splendor.html",
    action_from_form=forms.action_from_form,
    remember_turn=turn_memory.remember_turn_in_session,
    parse_api_action=api_actions.parse_action,
    action_schema=api_actions.ACTION_SCHEMA,
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
