"""The engine's small family of errors. Each is a ``ValueError`` whose message a player can read."""

from __future__ import annotations


class IllegalAction(ValueError):
    """The action is well formed but the rules do not allow it in this state."""


class MalformedJSON(IllegalAction):
    """A JSON action, state or setup does not have the documented shape (``docs/notation.md``)."""


class UnknownVariant(ValueError):
    """No engine exists for the variant name given."""
