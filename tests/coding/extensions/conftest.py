"""Logins extensions declare live in one process-wide table (config/oauth/providers.py); a
test's extensions are not unloaded, so what they declared is forgotten after each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tau_coding.config.oauth import providers


@pytest.fixture(autouse=True)
def _forget_extension_logins() -> Iterator[None]:
    yield
    for name in list(providers._REGISTERED):
        providers.unregister_login_provider(name)
