"""Account pages: sign up and the profile (name, notifications, personal API tokens).

Signing in and out and resetting a password are django.contrib.auth's own views, with the
site's templates in templates/registration/.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.views import PasswordResetConfirmView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render, resolve_url
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from accounts import selectors, services
from accounts.errors import AccountError
from accounts.forms import ProfileForm, SignUpForm, TokenCreateForm
from accounts.lockout import lift_lock_out_of
from accounts.models import Profile

NEW_TOKEN_SESSION_KEY = "accounts-new-api-token"
"""Where a just-created raw token waits to be shown once, on the page after the POST."""


class SeeOther(HttpResponseRedirect):
    status_code = 303


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_sign_up(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except AccountError as error:
            form.add_error(getattr(error, "field", None), error.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.get_username()}! Start a game below.")
            return SeeOther(_next_url(request))
    status = 400 if form.is_bound else 200
    return render(request, "accounts/signup.html", {"form": form}, status=status)


class PasswordResetConfirm(PasswordResetConfirmView):
    """Django's "choose a new password" step of a password reset, which also lifts the
    account's sign-in lock-outs: the mailbox's owner has just proved the account is theirs."""

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:  # type: ignore[type-arg]
        response = super().form_valid(form)
        lift_lock_out_of(form.user.get_username())
        return response


def _next_url(request: HttpRequest) -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return resolve_url("lobby")


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    current = selectors.profile_for(request.user)
    form = ProfileForm(request.POST or None, initial=_profile_initial(current))
    if request.method == "POST" and form.is_valid():
        try:
            services.profile_update(request.user, **form.cleaned_data)
        except AccountError as error:
            form.add_error(getattr(error, "field", None), error.message)
        else:
            messages.success(request, "Your profile is saved.")
            return SeeOther(reverse("profile"))
    return _profile_page(request, form, TokenCreateForm(), status=400 if form.is_bound else 200)


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    form = TokenCreateForm(request.POST)
    if form.is_valid():
        try:
            _, raw_token = services.token_create(request.user, form.cleaned_data["name"])
        except AccountError as error:
            form.add_error("name", error.message)
        else:
            # Kept server-side (the session), never in a cookie or a URL, and shown once.
            request.session[NEW_TOKEN_SESSION_KEY] = raw_token
            return SeeOther(reverse("profile"))
    current = selectors.profile_for(request.user)
    profile_form = ProfileForm(initial=_profile_initial(current))
    return _profile_page(request, profile_form, form, status=400)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = services.token_revoke(token_id, request.user)
    except AccountError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"The token “{token.name}” is revoked.")
    return SeeOther(reverse("profile"))


def _profile_initial(profile: Profile) -> dict[str, object]:
    return {
        "display_name": profile.display_name,
        "notify": profile.notify,
        "digest_hour": profile.digest_hour,
        "time_zone": profile.time_zone,
    }


def _profile_page(
    request: HttpRequest, form: ProfileForm, token_form: TokenCreateForm, *, status: int
) -> HttpResponse:
    context = {
        "form": form,
        "token_form": token_form,
        "tokens": selectors.token_list(request.user),
        "new_token": request.session.pop(NEW_TOKEN_SESSION_KEY, None),
    }
    return render(request, "accounts/profile.html", context, status=status)
