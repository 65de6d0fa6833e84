"""Projections of finished games, all rebuildable from the event log (``rebuild_analytics``).

``CountedGame`` is the guard: one row per (game, projection), inserted in the same transaction
as the projection's writes, so a game is counted exactly once however often its task runs.
``GameFacts`` and ``SeatFacts`` are the per-game facts; ``Tally`` holds the aggregates, keyed
by variant, player count, bots or not and day, so every filter is a sum over a few rows.
Only ``analytics.projections`` writes any of them. They point at games without a database
constraint: games are never deleted, and the event store's own guards (its trigger refusing a
TRUNCATE of the games tables) must not meet a projection's foreign key first.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game


class CountedGame(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False
    )
    projection = models.CharField(max_length=30)
    counted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "projection"], name="game_counted_once_per_projection"
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} counted by {self.projection}"


class GameFacts(models.Model):
    """What one finished game was: who sat where, how it ended, what was seen and bought."""

    game = models.OneToOneField(
        Game, primary_key=True, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False
    )
    variant = models.CharField(max_length=20)
    player_count = models.PositiveSmallIntegerField()
    with_bots = models.BooleanField()
    finished_at = models.DateTimeField()
    rounds = models.PositiveIntegerField()
    ended_by = models.CharField(max_length=30)
    is_rated = models.BooleanField()
    facts = models.JSONField(help_text="The variant's facts: cards seen, bought, reserved; nobles.")

    class Meta:
        indexes = [models.Index(fields=["variant", "finished_at"])]

    def __str__(self) -> str:
        return f"facts of game {self.game_id}"


class SeatFacts(models.Model):
    game = models.ForeignKey(GameFacts, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    bot_level = models.CharField(max_length=10, blank=True)
    display_name = models.CharField(max_length=150, blank=True)
    points = models.IntegerField()
    won = models.BooleanField()
    rank = models.PositiveSmallIntegerField(help_text="1 for the winners, then by the rules.")
    cards = models.JSONField(help_text="Ids of the cards bought, in order.")
    colours = models.JSONField(help_text="Cards bought per bonus colour.")

    class Meta:
        ordering = ["game_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_facts_once_per_seat"),
        ]
        indexes = [models.Index(fields=["user", "game"])]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id}"


class Tally(models.Model):
    """One counter of one bucket: ``metric`` names what is counted, ``item`` of what."""

    variant = models.CharField(max_length=20)
    player_count = models.PositiveSmallIntegerField()
    with_bots = models.BooleanField()
    day = models.DateField()
    metric = models.CharField(max_length=30)
    item = models.CharField(max_length=40, blank=True)
    value = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "player_count", "with_bots", "day", "metric", "item"],
                name="tally_one_row_per_bucket",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.metric}[{self.item}] = {self.value}"


class Rating(models.Model):
    """A participant's current rating in one variant: a user, or one bot level."""

    variant = models.CharField(max_length=20)
    participant = models.CharField(max_length=40, help_text='"user:<id>" or "bot:<level>".')
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    bot_level = models.CharField(max_length=10, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu − 3σ: what the leaderboard sorts by.")
    games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "participant"], name="one_rating_per_variant"
            ),
        ]
        indexes = [models.Index(fields=["variant", "-ordinal"])]

    def __str__(self) -> str:
        return f"{self.participant} in {self.variant}: {self.ordinal:.1f}"


class RatingChange(models.Model):
    """The rating a participant had after one rated game: the rating history."""

    game = models.ForeignKey(
        Game, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False
    )
    variant = models.CharField(max_length=20)
    participant = models.CharField(max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    ordinal_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["finished_at", "game_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "participant"], name="one_rating_change_per_game"
            ),
        ]
        indexes = [
            models.Index(fields=["participant", "variant", "finished_at"]),
            # Whether any game rated so far finished after the one being counted.
            models.Index(fields=["variant", "finished_at", "game"]),
        ]

    def __str__(self) -> str:
        return f"{self.participant} after game {self.game_id}: {self.ordinal:.1f}"


class StatsVersion(models.Model):
    """One row, given a fresh random token in the transaction of every change to the numbers
    (a game counted, a rebuild): cached statistics are keyed by it, so a page never shows
    numbers older than the last commit, and nothing has to find and delete stale entries."""

    token = models.CharField(max_length=32)

    def __str__(self) -> str:
        return f"statistics version {self.token}"
