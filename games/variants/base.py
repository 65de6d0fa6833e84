"""What a game provides, beyond its engine: one value per game, the one seam (design.md, "One
seam for every game").

Every game the site offers is an engine package behind ``games.engine`` and a package here,
``games.variants.<game>``, whose ``__init__`` builds its one :class:`Game` from its own modules:
words, its ending, presenter and table, page forms, API actions, bots (the Expert's value network
among them), analytics facts, the analysis's position judge, mail position and its "How to play"
page.
``games.variants.GAMES`` lists them, and every shared layer (services, selectors, pages, the
API, history, mail, analytics) reaches a game only through that registry, keyed by variant.
``games.variants.completeness`` refuses at start-up a game the engine knows whose ``Game`` lacks
a part or names a template that does not exist.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games import engine
from games.bots import Chooser
from games.bots.learning.network import ValueNetwork, installed
from games.variants.endings import Ending
from games.variants.play_facts import GameAnalytics

if TYPE_CHECKING:
    from django.http import QueryDict


@dataclass(frozen=True, kw_only=True)
class HowToPlay:
    """A game's "How to play" page for a newcomer: its words and the pictures they show."""

    template: str
    """The page's content: the rules in the site's own words, and where each picture goes."""
    examples: Callable[[], Mapping[str, Any]]
    """() -> each picture's context by name: example positions drawn by the game's own table
    presenter (``games.variants.illustrations``), for the template's region partials."""


@dataclass(frozen=True, kw_only=True)
class PositionJudge:
    """How a finished game's analysis judges a position of this game: with the game's search
    bot, from the mover's view only, at a budget counted in the bot's own units (iterations,
    samples), not in seconds, so that an analysis repeats exactly from its seed. Once the game's
    Expert network has passed its gate, the search judges with it: the analysis uses the
    strongest bot (issue 28), and the network's fingerprint joins the analysis's settings."""

    budget: Mapping[str, int]
    """The documented budget per position, e.g. ``{"iterations": 400}``."""
    evaluate: Callable[
        [Mapping[str, Any], random.Random, Mapping[str, int], Any, ValueNetwork | None], Any
    ]
    """(the mover's view, a generator, a budget, the move played or None, the network that
    judges or None for the hand-set evaluation) -> the search's estimates: ``.best`` (the move
    it prefers) and ``.estimates`` (move -> (mean chance for the mover, samples)), the move
    played among them."""
    network: Path | None = None
    """The Expert's network file: it judges once it is no longer provisional."""

    def settings(self, scale: float = 1.0) -> dict[str, Any]:
        """What an analysis is computed with now: the budget (times ``scale``, which tests
        lower) and, when the network judges, its fingerprint."""
        chosen: dict[str, Any] = {
            unit: max(1, round(count * scale)) for unit, count in self.budget.items()
        }
        network = self.learned()
        if network is not None:
            chosen[NETWORK_SETTING] = network.fingerprint
        return chosen

    def network_for(self, settings: Mapping[str, Any]) -> ValueNetwork | None:
        """The network that judges under ``settings`` (None: the hand-set evaluation); raises
        ``ValueError`` when they name a network other than the installed one, whose
        judgements would be stored as another's."""
        wanted = settings.get(NETWORK_SETTING)
        if wanted is None:
            return None
        network = self.learned()
        if network is None or network.fingerprint != wanted:
            have = "none" if network is None else network.fingerprint
            raise ValueError(f"the analysis asks for network {wanted}; installed: {have}")
        return network

    def learned(self) -> ValueNetwork | None:
        """The installed network if it judges now (it has passed its gate), else None."""
        if self.network is None:
            return None
        network = installed(self.network)
        return None if network.provisional else network


NETWORK_SETTING = "network"
"""The key of an analysis's settings that names the network judging (its fingerprint)."""


@dataclass(frozen=True, kw_only=True)
class ExpertBot:
    """The Expert bot of a game: its search judged by a value network, and what training that
    network needs (docs/decisions/0144-an-expert-bot-level.md)."""

    seat_rows: Callable[[Any, int], list[list[float]]]
    """(a state, the observer's seat) -> one row of :attr:`features` numbers per seat, with
    only what the observer knows (``games.bots.features``, ``games.bots.duel.features``)."""
    features: int
    """The numbers in a row: the network's input size."""
    most_seats: int
    """The largest table the encoder has room for."""
    choose: Callable[..., engine.Action]
    """(view, rng, *, network, budget_seconds, iterations) -> action: the game's Expert."""
    network: Path
    """The trained network's file (``games.bots.learning.network``), in the game's package."""
    training_iterations: int
    """The search's iterations per move in self-play and in a training run's gate unless the
    run says otherwise (``manage.py train_expert``): the base game's search counts tree
    iterations, the Duel's samples per candidate move, and a game's CPU time differs."""

    def play(
        self,
        view: Mapping[str, Any],
        rng: random.Random,
        *,
        budget_seconds: float | None = None,
        iterations: int | None = None,
    ) -> engine.Action:
        """The Expert's move: the chooser with the game's network, read from its file on the
        process's first Expert move (not at import, so a server that never plays one never
        reads it) and kept."""
        return self.choose(
            view,
            rng,
            network=installed(self.network),
            budget_seconds=budget_seconds,
            iterations=iterations,
        )


PositionBuilder = Callable[[Mapping[str, Any], Sequence[str], int | None], dict[str, Any]]
"""(a player's view, every seat's name, the player's seat) -> the position a mail shows."""


@dataclass(frozen=True, kw_only=True)
class Game:
    """Everything the shared layers need of one game besides its engine, by part."""

    variant: str
    """The engine's name of the game (``games.engine.VARIANTS``): the registry's key."""
    title: str
    blurb: str
    """One sentence for the new-game form."""

    # Words ------------------------------------------------------------------------------------
    describe_action: Callable[[Mapping[str, Any]], str]
    """An action in words, without its subject: "took white, blue and red"."""
    consequences: Callable[[Any, Any, int | None], list[dict[str, Any]]]
    """(state before, state after, the acting seat) -> what the action brought about by
    itself, e.g. ``{"kind": "noble_visit", "seat": 0, "noble": 3, "points": 3}``. Only public
    facts: every viewer reads them."""

    ending: Ending
    """How a finished game was won, its split of points, and the words of a list
    (``games.variants.endings``)."""

    # The game page and the replay ---------------------------------------------------------------
    table: Callable[..., dict[str, dict[str, Any]]]
    """The board's regions for one viewer (``games.variants.splendor.table.table_for_viewer``)."""
    table_template: str
    """Draws every region of a running game's page (``regions``) in its layout."""
    partials: str
    """The folder of the region templates, one ``<name>.html`` per region."""
    board_template: str
    """Draws the table's regions without any control (the replay viewer's)."""
    action_from_form: Callable[[QueryDict], tuple[dict[str, Any], int, str]]
    """A posted move: (action JSON, expected version, idempotency key); ``InvalidInput``."""
    remember_turn: Callable[..., tuple[Any, set[int] | None]]
    """(memory kept in the session, page data) -> (memory to keep, face-up cards already seen,
    or None to mark none new)."""

    # The API ----------------------------------------------------------------------------------
    parse_api_action: Callable[[Any], dict[str, Any]]
    """An API action body, its shape checked; raises DRF's ``ValidationError``."""
    action_schema: Any
    """The OpenAPI schema of those bodies (``games.variants.action_schema.GameActionsSchema``)."""

    # Bots, analytics, mail ----------------------------------------------------------------------
    bots: Mapping[str, Chooser]
    """The chooser of each bot level (``games.bots.BOT_LEVELS``), from ``games.bots``; the
    Expert's is :attr:`expert`'s ``play``."""
    expert: ExpertBot
    """The Expert bot's encoder, chooser and network file."""
    analytics: GameAnalytics
    """How a finished game folds into facts, and the catalogue the stats pages list."""
    position_judge: PositionJudge
    """How an analysis of a finished game judges each move (the ``analysis`` app)."""
    mail_position: PositionBuilder
    """The position a turn mail shows (``notifications/mail/position/<variant>.txt|html``)."""
    card_words: Callable[[Mapping[str, Any]], dict[str, Any]]
    """A face-up card as the mail spells it (the leak tests look for hidden cards' words)."""

    # Learning to play ---------------------------------------------------------------------------
    how_to_play: HowToPlay | None
    """The "How to play" page (``/how-to-play/<variant>/``)."""

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return engine.seat_counts(self.variant)

    @property
    def mail_templates(self) -> tuple[str, str]:
        """The position's templates in a turn mail, text and HTML (named by the variant: the
        mail's templates include them as ``position/<variant>``)."""
        folder = "notifications/mail/position/"
        return f"{folder}{self.variant}.txt", f"{folder}{self.variant}.html"
