"""The viewer's choices on the base game's table: their legal actions sorted by the control that
offers each, and why a choice is not offered, in words for the page (``table.table_for_viewer``
reads both)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.variants.splendor.forms import GEM_COLOURS, TOKEN_COLOURS

# Legal actions --------------------------------------------------------------------------------


@dataclass
class Choices:
    """The viewer's legal actions, sorted by the control that offers them."""

    takes: list[list[str]] = field(default_factory=list)
    take_two: list[str] = field(default_factory=list)
    reserve_cards: set[int] = field(default_factory=set)
    reserve_levels: set[int] = field(default_factory=set)
    buys: set[int] = field(default_factory=set)
    can_return: bool = False
    nobles: set[int] = field(default_factory=set)
    can_pass: bool = False

    @classmethod
    def from_actions(cls, actions: Iterable[Mapping[str, Any]]) -> Choices:
        choices = cls()
        for action in actions:
            kind = action["type"]
            if kind == "take_gems":
                taken = list(action["gems"])
                if len(taken) == 2 and taken[0] == taken[1]:
                    choices.take_two.append(taken[0])
                else:
                    choices.takes.append(sorted(taken, key=TOKEN_COLOURS.index))
            elif kind == "reserve_card":
                choices.reserve_cards.add(action["card"])
            elif kind == "reserve_from_deck":
                choices.reserve_levels.add(action["level"])
            elif kind == "buy_card":
                choices.buys.add(action["card"])
            elif kind == "return_tokens":
                choices.can_return = True
            elif kind == "choose_noble":
                choices.nobles.add(action["noble"])
            elif kind == "pass":
                choices.can_pass = True
        return choices

    @property
    def take_colours(self) -> list[str]:
        offered = {colour for combo in self.takes for colour in combo}
        return [colour for colour in GEM_COLOURS if colour in offered]

    @property
    def has_any(self) -> bool:
        return bool(
            self.takes
            or self.take_two
            or self.reserve_cards
            or self.reserve_levels
            or self.buys
            or self.can_return
            or self.nobles
            or self.can_pass
        )


# Why a choice is not offered ------------------------------------------------------------------

MOST_RESERVED = 3
"""A player holds at most three reserved cards (rulebook: "Reserve a card")."""
TWO_NEED_IN_SUPPLY = 4
"""Two tokens of one colour may be taken only from four or more of it (rulebook)."""


@dataclass(frozen=True)
class WhyNot:
    """Why the viewer, choosing their move, is not offered a choice, in words for the page.

    Empty while they are not choosing a move (another seat's turn, a return of tokens, a
    noble's visit, the game over): the page then offers no such choices at all. The reasons
    restate the rules the engine applied to its list of legal actions; they are read only for
    what that list leaves out.
    """

    reserve: str = ""
    takes: dict[str, str] = field(default_factory=dict)
    take_two: dict[str, str] = field(default_factory=dict)

    @classmethod
    def for_viewer(
        cls, data: Mapping[str, Any], me: Mapping[str, Any] | None, choices: Choices
    ) -> WhyNot:
        state = data["state"]
        is_choosing = (
            me is not None
            and data["status"] == "active"
            and data["acting_seat"] == data["viewer_seat"]
            and state["phase"] == "main"
        )
        if not is_choosing or me is None:
            return cls()
        supply = state["supply"]
        held = len(me["reserved"])
        return cls(
            reserve="three reserved already" if held >= MOST_RESERVED else "",
            takes={
                colour: "gold comes only with a reserve"
                if colour == "gold"
                else "none left in the bank"
                for colour in TOKEN_COLOURS
                if colour not in choices.take_colours
                and (colour == "gold" or not supply.get(colour, 0))
            },
            take_two={
                colour: _two_needs_four(supply.get(colour, 0))
                for colour in GEM_COLOURS
                if colour not in choices.take_two and supply.get(colour, 0) < TWO_NEED_IN_SUPPLY
            },
        )


def _two_needs_four(left: int) -> str:
    return f"two need four in the bank, {left or 'none'} left"
