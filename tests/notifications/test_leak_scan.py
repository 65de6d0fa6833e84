"""The mail leak scan itself: it must catch a hidden card spelled out, and must not mistake
a visible card whose cost goes on for a hidden one whose cost is its beginning."""

from __future__ import annotations

from tests.leaks import _spelled_out

HIDDEN = "level 2 white, 2 points, costs 5 red"


def test_a_card_spelled_out_in_a_mail_is_found() -> None:
    assert _spelled_out(HIDDEN, f"On the table: {HIDDEN}\nYour move.")


def test_a_card_at_the_end_of_a_mail_is_found() -> None:
    assert _spelled_out(HIDDEN, f"On the table: {HIDDEN}")


def test_a_longer_cost_is_another_card() -> None:
    assert not _spelled_out(HIDDEN, f"On the table: {HIDDEN}, 3 black\nYour move.")
