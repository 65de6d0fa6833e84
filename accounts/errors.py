"""Refusals of the account services, each with a stable code (as in ``games.errors``)."""

from __future__ import annotations

from typing import Any


class AccountError(Exception):
    """Base of every refusal the account services make; nothing was written."""

    code = "account_error"
    http_status = 400

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class TokenNotFound(AccountError):
    """No such token among the user's own: another user's token is not found either."""

    code = "not_found"
    http_status = 404


class InvalidAccountData(AccountError):
    """A name or setting that cannot be stored; ``details["fields"]`` says which and why."""

    code = "validation_error"
    http_status = 400

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message, fields={field: [message]})
        self.field = field


class UsernameTaken(InvalidAccountData):
    """Another account took the name between the form's check and the insert."""

    def __init__(self, message: str) -> None:
        super().__init__(message, field="username")
