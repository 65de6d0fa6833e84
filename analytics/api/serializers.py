"""Shapes of the statistics API: the same dicts ``analytics.selectors`` gives the pages."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from analytics.filters import BOTS_CHOICES, PLAYER_COUNTS, StatsFilter
from analytics.variants import known_variants
from games.variants.json_fields import StrictSerializer

RATE = {"allow_null": True, "help_text": "A fraction from 0 to 1; null when nothing was counted."}


class StatsFilterSerializer(StrictSerializer):
    variant = serializers.ChoiceField(choices=list(known_variants()), required=False)
    players = serializers.ChoiceField(choices=list(PLAYER_COUNTS), required=False)
    bots = serializers.ChoiceField(
        choices=list(BOTS_CHOICES),
        required=False,
        help_text="humans: only games without bots; bots: only games with at least one bot.",
    )
    since = serializers.DateField(required=False, help_text="First day (UTC) a game finished.")
    until = serializers.DateField(required=False, help_text="Last day (UTC), inclusive.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        since, until = attrs.get("since"), attrs.get("until")
        if since and until and since > until:
            raise serializers.ValidationError({"since": ["since must not be after until."]})
        return attrs

    def to_filter(self) -> StatsFilter:
        data = self.validated_data
        return StatsFilter(
            variant=data.get("variant", ""),
            players=data.get("players"),
            bots=data.get("bots", ""),
            since=data.get("since"),
            until=data.get("until"),
        )


CARD_NAME_HELP = (
    "The card as its game names it on the pages (level, bonus colour and points, for Splendor "
    "Duel bonuses, crowns and ability, then the cost): ids repeat across games, names do not."
)


class CardStatsSerializer(serializers.Serializer):
    variant = serializers.CharField()
    id = serializers.IntegerField()
    name = serializers.CharField(help_text=CARD_NAME_HELP)
    level = serializers.IntegerField()
    colour = serializers.CharField()
    points = serializers.IntegerField()
    cost = serializers.DictField(child=serializers.IntegerField())
    times_on_display = serializers.IntegerField(
        help_text=(
            "Games in which it came into play: it lay face up, or was reserved unseen from a deck."
        )
    )
    times_bought = serializers.IntegerField()
    times_reserved = serializers.IntegerField()
    purchase_rate = serializers.FloatField(**RATE)
    mean_turn_of_purchase = serializers.FloatField(allow_null=True)
    buyer_win_rate = serializers.FloatField(**RATE)
    lift = serializers.FloatField(
        allow_null=True, help_text="Buyers' win rate ÷ the average win rate."
    )
    bonus = serializers.IntegerField(required=False, help_text="Splendor Duel: bonuses it gives.")
    crowns = serializers.IntegerField(required=False, help_text="Splendor Duel only.")
    ability = serializers.CharField(required=False, help_text="Splendor Duel only.")


class NobleStatsSerializer(serializers.Serializer):
    """A base-game noble, or a Splendor Duel royal card (no requirement; an ability)."""

    variant = serializers.CharField()
    id = serializers.IntegerField()
    points = serializers.IntegerField()
    requires = serializers.DictField(child=serializers.IntegerField())
    ability = serializers.CharField(required=False, help_text="Splendor Duel only.")
    games_in_play = serializers.IntegerField()
    visits = serializers.IntegerField()
    visit_rate = serializers.FloatField(**RATE)
    visited_win_rate = serializers.FloatField(**RATE)


class SeatStatsSerializer(serializers.Serializer):
    seat = serializers.IntegerField(
        help_text="The place in the order of play: 1 moved first. In the base game that is the "
        "seat; Splendor Duel draws who moves first, whatever the seat."
    )
    player = serializers.CharField(
        help_text='The place as the game names it: "seat 1 (moves first)", "first player '
        '(drawn)"; "moved 1st" when the numbers sum several games.'
    )
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(**RATE)


class RoundsSerializer(serializers.Serializer):
    rounds = serializers.IntegerField()
    games = serializers.IntegerField()


class PointsSerializer(serializers.Serializer):
    points = serializers.IntegerField()
    players = serializers.IntegerField()


class EndingSerializer(serializers.Serializer):
    ended_by = serializers.CharField()
    games = serializers.IntegerField()
    share = serializers.FloatField(**RATE)


class ActionShareSerializer(serializers.Serializer):
    action = serializers.CharField()
    count = serializers.IntegerField()
    share = serializers.FloatField(**RATE)


class KindSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text='"human" or a bot level.')
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(**RATE)


class VersusSerializer(serializers.Serializer):
    kind = serializers.CharField()
    opponent = serializers.CharField()
    encounters = serializers.IntegerField(help_text="Pairs of seats of these kinds in a game.")
    finished_ahead = serializers.IntegerField()
    ahead_rate = serializers.FloatField(**RATE)


class VariantGamesSerializer(serializers.Serializer):
    variant = serializers.CharField()
    games = serializers.IntegerField()


class DuelAbilitySerializer(serializers.Serializer):
    ability = serializers.CharField()
    uses = serializers.IntegerField(help_text="Cards and royal cards gained with it.")
    per_game = serializers.FloatField(allow_null=True)
    by_winner_share = serializers.FloatField(**RATE)


class DuelPrivilegeSerializer(serializers.Serializer):
    privilege = serializers.CharField(
        help_text="used, or how gained: at_setup, opponent_replenished, opponent_took_three, "
        "ability."
    )
    count = serializers.IntegerField()
    per_game = serializers.FloatField(allow_null=True)
    by_winner_share = serializers.FloatField(**RATE)


class DuelFirstPlayerSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(**RATE)


class DuelCrownsSerializer(serializers.Serializer):
    crowns = serializers.IntegerField()
    players = serializers.IntegerField()


class DuelStatsSerializer(serializers.Serializer):
    """Splendor Duel's own numbers: win conditions, first player, abilities, privileges."""

    games = serializers.IntegerField()
    win_conditions = EndingSerializer(many=True)
    first_player = DuelFirstPlayerSerializer()
    abilities = DuelAbilitySerializer(many=True)
    privileges = DuelPrivilegeSerializer(many=True)
    crowns = DuelCrownsSerializer(many=True)


class StatisticsSerializer(serializers.Serializer):
    filters = serializers.DictField(child=serializers.CharField())
    games = serializers.IntegerField()
    seats = serializers.IntegerField()
    base_win_rate = serializers.FloatField(**RATE)
    cards = CardStatsSerializer(many=True)
    nobles = NobleStatsSerializer(many=True)
    seat_order = SeatStatsSerializer(many=True)
    rounds = RoundsSerializer(many=True)
    points = PointsSerializer(many=True)
    endings = EndingSerializer(many=True)
    actions = ActionShareSerializer(many=True)
    players_by_kind = KindSerializer(many=True)
    versus = VersusSerializer(many=True)
    variants = VariantGamesSerializer(many=True, help_text="Games per variant the filter shows.")
    duel = DuelStatsSerializer(
        allow_null=True,
        help_text="Splendor Duel's own numbers; null when the filter leaves it out.",
    )


class CardByPlayersSerializer(serializers.Serializer):
    players = serializers.IntegerField()
    times_on_display = serializers.IntegerField()
    times_bought = serializers.IntegerField()
    times_reserved = serializers.IntegerField()
    purchase_rate = serializers.FloatField(**RATE)
    mean_turn_of_purchase = serializers.FloatField(allow_null=True)
    buyer_win_rate = serializers.FloatField(**RATE)
    lift = serializers.FloatField(allow_null=True)


class CardDetailSerializer(serializers.Serializer):
    filters = serializers.DictField(child=serializers.CharField())
    card = CardStatsSerializer()
    by_players = CardByPlayersSerializer(many=True)


class NobleDetailSerializer(serializers.Serializer):
    filters = serializers.DictField(child=serializers.CharField())
    noble = NobleStatsSerializer()


DISPLAY_HELP = "The rating as the pages show it: 1500 + 30 × (mu − 3σ), rounded."
PROVISIONAL_HELP = "True until the participant has RATING_PROVISIONAL_GAMES (10) rated games."


class RatingPointSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    display_before = serializers.IntegerField(help_text="`before` on the display scale.")
    display_after = serializers.IntegerField(help_text="`after` on the display scale.")


class PlayerRatingSerializer(serializers.Serializer):
    variant = serializers.CharField()
    rating = serializers.FloatField(help_text="mu − 3σ.")
    display_rating = serializers.IntegerField(help_text=DISPLAY_HELP)
    provisional = serializers.BooleanField(help_text=PROVISIONAL_HELP)
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    history = RatingPointSerializer(many=True)


class ColourCountSerializer(serializers.Serializer):
    colour = serializers.CharField()
    cards_bought = serializers.IntegerField()


class BoughtCardSerializer(serializers.Serializer):
    variant = serializers.CharField()
    id = serializers.IntegerField()
    name = serializers.CharField(help_text=CARD_NAME_HELP)
    level = serializers.IntegerField()
    colour = serializers.CharField()
    points = serializers.IntegerField()
    cost = serializers.DictField(child=serializers.IntegerField())
    times_bought = serializers.IntegerField()


class PlayerGameStatsSerializer(serializers.Serializer):
    """A player's numbers in one game: its cards and colours are that game's own."""

    variant = serializers.CharField()
    title = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(**RATE)
    mean_points = serializers.FloatField(allow_null=True)
    favourite_colours = ColourCountSerializer(many=True)
    most_bought_cards = BoughtCardSerializer(many=True)
    rating = PlayerRatingSerializer(allow_null=True, help_text="null before a rated game.")


class PlayerStatsSerializer(serializers.Serializer):
    """Totals over the games the filter selects, then the same per game (``by_game``)."""

    filters = serializers.DictField(child=serializers.CharField())
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(**RATE)
    mean_points = serializers.FloatField(allow_null=True)
    favourite_colours = ColourCountSerializer(many=True)
    most_bought_cards = BoughtCardSerializer(
        many=True, help_text="Over every game: each card names its game (variant, name)."
    )
    ratings = PlayerRatingSerializer(many=True)
    by_game = PlayerGameStatsSerializer(
        many=True, help_text="Per game the player has played or is rated in, in the site's order."
    )


class LeaderboardQuerySerializer(StrictSerializer):
    variant = serializers.ChoiceField(choices=list(known_variants()), required=False)


class LeaderboardPlayerSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField(help_text="mu − 3σ.")
    display_rating = serializers.IntegerField(help_text=DISPLAY_HELP)
    provisional = serializers.BooleanField(help_text=PROVISIONAL_HELP)
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class LeaderboardBotSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    bot_level = serializers.CharField()
    rating = serializers.FloatField(help_text="mu − 3σ.")
    display_rating = serializers.IntegerField(help_text=DISPLAY_HELP)
    provisional = serializers.BooleanField(help_text=PROVISIONAL_HELP)
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class LeaderboardSerializer(serializers.Serializer):
    variant = serializers.CharField()
    min_games = serializers.IntegerField()
    players = LeaderboardPlayerSerializer(many=True)
    bots = LeaderboardBotSerializer(many=True)
