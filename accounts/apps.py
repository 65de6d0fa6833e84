from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from accounts import token_cache

        def forget_tokens(sender: object, instance: object, **kwargs: object) -> None:
            # A changed account (deactivated, deleted) must not ride on a remembered token.
            token_cache.forget_user(instance.pk)  # type: ignore[attr-defined]

        user_model = get_user_model()
        post_save.connect(forget_tokens, sender=user_model, dispatch_uid="token_cache_user_saved")
        post_delete.connect(
            forget_tokens, sender=user_model, dispatch_uid="token_cache_user_deleted"
        )
