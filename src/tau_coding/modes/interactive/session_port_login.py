"""Subscription logins for the TUI's /login: the providers, and one login run off the UI thread.

The login's URL and progress reach the user through ``show`` (a notice in the transcript);
the browser is opened when there is a desktop. Cancelling the awaiting task (leaving Tau)
cancels the login; a failure is one line and leaves auth.json as it was.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from tau_coding.config.oauth.browser import open_in_browser
from tau_coding.config.oauth.flows import LoginError, LoginHooks, LoginPrompt, login
from tau_coding.config.oauth.providers import login_providers
from tau_coding.config.oauth.store import LoginStoreError, logged_in, save_login
from tau_coding.tui.port import CommandResult


def subscription_logins(
    auth_file: Path, environ: Mapping[str, str] = os.environ
) -> Sequence[tuple[str, str, bool]]:
    """(provider, what it is, logged in?) for every provider ``/login <provider>`` can log in to."""
    try:
        current = logged_in(auth_file)
    except LoginStoreError:
        current = []
    return [(name, spec.name, name in current) for name, spec in login_providers(environ).items()]


async def subscription_login(
    auth_file: Path, provider: str, show: Callable[[str], object], environ: Mapping[str, str] = os.environ
) -> CommandResult:
    spec = login_providers(environ).get(provider)
    if spec is None:
        return CommandResult(f"No subscription login for {provider!r}.", is_error=True)
    loop = asyncio.get_running_loop()
    cancelled = threading.Event()

    def say(line: str) -> None:
        loop.call_soon_threadsafe(show, line)

    def prompt(shown: LoginPrompt) -> None:
        say(f"{shown.instructions} Open: {shown.url}")

    hooks = LoginHooks(
        show=prompt, progress=say, open_url=lambda url: open_in_browser(url, environ), cancelled=cancelled
    )
    try:
        entry = await asyncio.to_thread(login, spec, hooks, environ)
        save_login(auth_file, provider, entry)
    except asyncio.CancelledError:
        cancelled.set()
        raise
    except (LoginError, LoginStoreError, OSError) as exc:
        return CommandResult(str(exc), is_error=True)
    return CommandResult(f"Logged in to {spec.name}.")
