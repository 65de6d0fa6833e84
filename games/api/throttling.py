"""Per-user throttling of action submission (scope ``actions``)."""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle


class ActionRateThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, reading its rate when the request comes.

    DRF binds ``THROTTLE_RATES`` when the module is imported, so ``override_settings`` would not
    reach it; reading ``api_settings`` here lets tests and settings changes take effect at once.
    """

    def get_rate(self) -> str | None:
        rates: dict[str, str | None] = api_settings.DEFAULT_THROTTLE_RATES
        return rates.get(self.scope)
