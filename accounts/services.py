"""Commands on accounts: the only code that writes profiles and API tokens.

The REST API and the web pages (the profile page, the token page) share these functions. A
refusal raises an ``accounts.errors.AccountError`` and writes nothing.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from datetime import timedelta
from importlib import resources

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, User
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone

from accounts import token_cache
from accounts.errors import InvalidAccountData, TokenNotFound, UsernameTaken
from accounts.models import DISPLAY_NAME_MAX_LENGTH, TOKEN_NAME_MAX_LENGTH, ApiToken, Profile
from accounts.selectors import anonymous_username
from accounts.text import has_forbidden_characters
from games.store import rows

ANONYMISED_DISPLAY_NAME = "Former player"

TOKEN_PREFIX = "spl_"
"""Marks a Splendor Online token, so secret scanners and people can recognise a leaked one."""

LAST_USED_PRECISION = timedelta(minutes=1)
"""``last_used_at`` is written at most this often per token, not on every request."""

_MAX_RAW_TOKEN_LENGTH = 200


def token_digest(raw_token: str) -> str:
    """The SHA-256 (hex) under which a raw token is stored and looked up."""
    return hashlib.sha256(raw_token.encode()).hexdigest()


def user_sign_up(*, username: str, email: str, password: str) -> AbstractBaseUser:
    """A new account, its password hashed; refused with ``UsernameTaken`` if the name is.

    The sign-up form checks the name first, but another sign-up can take it between that check
    and the insert: the unique index decides, and the losers get the form's own message.
    """
    user_model = get_user_model()
    try:
        with transaction.atomic():
            user: AbstractBaseUser = user_model.objects.create_user(
                username=username, email=email, password=password
            )
    except IntegrityError:
        # Lost a race for the name (in any case: the index compares upper-cased names).
        if not user_model.objects.filter(username__iexact=username).exists():
            raise
        username_field = user_model._meta.get_field(user_model.USERNAME_FIELD)
        raise UsernameTaken(str(username_field.error_messages["unique"])) from None
    return user


def user_anonymise(user: AbstractBaseUser) -> User:
    """Deactivate ``user`` and wipe what identifies them, keeping the row
    (docs/decisions/0101-anonymise-dont-delete.md).

    A player's account cannot be deleted: the event log of their games refers to it and is
    never changed. Instead the username becomes ``former-player-<id>``, email and names are
    cleared, the password becomes unusable, staff rights and API tokens go, and the profile
    shows a neutral name and sends no mail. Their games, seats and events stay as recorded.
    Running it twice changes nothing more.
    """
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        locked.username = anonymous_username(locked.pk)
        locked.email = locked.first_name = locked.last_name = ""
        locked.set_unusable_password()
        locked.is_active = locked.is_staff = locked.is_superuser = False
        locked.save()
        locked.groups.clear()
        locked.user_permissions.clear()
        ApiToken.objects.filter(user=locked, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        Profile.objects.update_or_create(
            user=locked,
            defaults={"display_name": ANONYMISED_DISPLAY_NAME, "notify": Profile.Notify.NONE},
        )
    return locked


def token_create(user: AbstractBaseUser, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``: the row, and the raw token to show once and never again."""
    name = _clean_text(name, field="name", max_length=TOKEN_NAME_MAX_LENGTH)
    if not name:
        raise InvalidAccountData("Give the token a name.", field="name")
    raw_token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(user=user, name=name, token_hash=token_digest(raw_token))
    return token, raw_token


def token_revoke(token_id: int, user: AbstractBaseUser) -> ApiToken:
    """Revoke one of ``user``'s tokens; it is refused from the next request on.

    In this process at once; in the others once their cache entry expires (a few seconds:
    ``accounts.token_cache``).

    Revoking a revoked token changes nothing. Another user's token is "not found", so the
    answer does not tell whether it exists.
    """
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(pk=token_id, user=user).first()
        if token is None:
            raise TokenNotFound(f"You have no token {token_id}.")
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
    token_cache.forget(token.token_hash)
    return token


def token_authenticate(raw_token: str) -> ApiToken | None:
    """The active token with this raw value, its user loaded; None if unknown or revoked.

    Records when the token was last used, at most once per ``LAST_USED_PRECISION``, so an
    authenticated request costs one read and only now and then a write; and the process
    remembers the answer for a few seconds (``accounts.token_cache``), so most cost none.
    """
    if not raw_token or len(raw_token) > _MAX_RAW_TOKEN_LENGTH:
        return None
    digest = token_digest(raw_token)
    remembered = token_cache.lookup(digest)
    if remembered is not None:
        return remembered
    token = _active_token_with_user(digest)
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    token_cache.remember(digest, token)
    return token


def _active_token_with_user(digest: str) -> ApiToken | None:
    """The unrevoked token with this digest, its user loaded: what
    ``ApiToken.objects.select_related("user")`` would give, read in SQL (``games.store.rows``).
    Each process reads it every few seconds per token; the ORM took several times the CPU
    of the round trip to build this query and its two models."""
    token_columns = rows.columns(ApiToken)
    found = rows.fetch_all(_active_token_sql(connection.vendor), [digest])
    if not found:
        return None
    token = token_columns.build(found[0])
    token.user = rows.columns(get_user_model()).build(found[0][len(token_columns) :])
    return token


@functools.cache
def _active_token_sql(vendor: str) -> str:
    """The read of ``_active_token_with_user`` for the database ``vendor`` (the cache key):
    the token's columns, then its user's. The digest is unique: one row at most."""
    person = get_user_model()
    quote = connection.ops.quote_name

    def column(model: type[models.Model], name: str) -> str:
        return quote(model._meta.get_field(name).column)  # type: ignore[union-attr]

    return (
        f"SELECT {rows.columns(ApiToken).select('token')}, "
        f"{rows.columns(person).select('person')} "
        f"FROM {quote(ApiToken._meta.db_table)} token "
        f"JOIN {quote(person._meta.db_table)} person "
        f"ON person.{column(person, 'id')} = token.{column(ApiToken, 'user')} "
        f"WHERE token.{column(ApiToken, 'token_hash')} = %s "
        f"AND token.{column(ApiToken, 'revoked_at')} IS NULL"
    )


def profile_update(
    user: AbstractBaseUser,
    *,
    display_name: str | None = None,
    notify: str | None = None,
    digest_hour: int | None = None,
    time_zone: str | None = None,
) -> Profile:
    """Change the given fields of ``user``'s profile (creating it on first use)."""
    changes: dict[str, object] = {}
    if display_name is not None:
        changes["display_name"] = _clean_text(
            display_name, field="display_name", max_length=DISPLAY_NAME_MAX_LENGTH
        )
    if notify is not None:
        if notify not in Profile.Notify.values:
            raise InvalidAccountData(
                f"Choose one of {', '.join(Profile.Notify.values)}.", field="notify"
            )
        changes["notify"] = notify
    if digest_hour is not None:
        if not 0 <= digest_hour <= 23:
            raise InvalidAccountData("An hour from 0 to 23.", field="digest_hour")
        changes["digest_hour"] = digest_hour
    if time_zone is not None:
        if time_zone not in time_zone_names():
            raise InvalidAccountData(
                f"Unknown time zone {time_zone!r}: give an IANA name such as Europe/Paris.",
                field="time_zone",
            )
        changes["time_zone"] = time_zone
    with transaction.atomic():
        profile, created = Profile.objects.select_for_update().get_or_create(
            user=user, defaults=changes
        )
        if not created and changes:
            for field, value in changes.items():
                setattr(profile, field, value)
            profile.save(update_fields=[*changes, "updated_at"])
    return profile


@functools.cache
@functools.cache
def time_zone_names() -> frozenset[str]:
    """The IANA time zones a profile may choose from: those of the pinned tzdata package, so the
    list (and the API schema that states it) is the same on every machine whatever zones its
    system has; zoneinfo loads each of them from the package when the system lacks it."""
    return frozenset(resources.files("tzdata").joinpath("zones").read_text().split())


def _clean_text(value: str, *, field: str, max_length: int) -> str:
    """``value`` without surrounding spaces; refused if too long or holding control characters."""
    cleaned = value.strip()
    if len(cleaned) > max_length:
        raise InvalidAccountData(f"At most {max_length} characters.", field=field)
    if has_forbidden_characters(cleaned):
        raise InvalidAccountData(
            "Control characters are not allowed. Neither are invisible formatting ones.",
            field=field,
        )
    return cleaned
