"""Which characters a name shown to other players may hold: one rule for the code and the schema.

Refused: control characters (Unicode category Cc), lone surrogates (Cs), and the invisible
formatting characters of the Basic Multilingual Plane (Cf: bidirectional overrides, zero-width
spaces, soft hyphens...), which let a name pose as another or hide text. Everything else is
allowed, unassigned and private-use code points included: they show as a box at worst.
The class is written out (not computed at import) so the OpenAPI schema can state it as a
``pattern``; tests/api/test_profile.py checks it against ``unicodedata``.
"""

from __future__ import annotations

import re

FORBIDDEN_CHARACTERS = (
    r"\x00-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e"
    r"\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
)
"""A regular-expression character class body (without brackets). Lone surrogates are refused
too, but stated apart: they are not text, and regular-expression engines other than Python's
cannot even hold them in a pattern (the schema's would then be ignored)."""

VISIBLE_TEXT_PATTERN = rf"^[^{FORBIDDEN_CHARACTERS}]*$"
"""Any text without a forbidden character, the empty text included."""

VISIBLE_NON_EMPTY_TEXT_PATTERN = rf"^[^{FORBIDDEN_CHARACTERS}]+$"
"""As above, but not empty: the check of a field that takes the empty text apart. The schema
states such a field as ``oneOf`` this pattern and ``maxLength: 0``, so the pattern must not
match the empty text too (``""`` would then match both, and the schema would refuse it)."""

NON_BLANK_TEXT_PATTERN = (
    rf"^[^{FORBIDDEN_CHARACTERS}]*[^{FORBIDDEN_CHARACTERS}\s][^{FORBIDDEN_CHARACTERS}]*$"
)
"""As above, with at least one character that is not white space."""

_FORBIDDEN = re.compile(rf"[{FORBIDDEN_CHARACTERS}\ud800-\udfff]")


def has_forbidden_characters(text: str) -> bool:
    return _FORBIDDEN.search(text) is not None
