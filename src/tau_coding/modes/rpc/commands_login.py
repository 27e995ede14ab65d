"""Handlers of the login commands: ``get_logins``, ``login``, ``abort_login``, ``logout``.

``login`` answers when the login is over; meanwhile it emits a ``login_url`` event (the URL
for the client to open, its instructions and, for a device code, ``userCode``) and
``login_progress`` events. Tau opens no browser in RPC mode: the client does. One login runs
at a time; ``abort_login`` (or the end of stdin) cancels it. A failed login is the command's
error, one line, and auth.json is left as it was.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

from tau_coding.config.oauth.flows import LoginError, LoginHooks, LoginPrompt
from tau_coding.config.oauth.flows import login as run_login
from tau_coding.config.oauth.providers import login_providers
from tau_coding.config.oauth.store import LoginStoreError, logged_in, remove_login, save_login
from tau_coding.config.paths import TauPaths
from tau_coding.modes.rpc.fields import Fields
from tau_coding.modes.rpc.responses import NO_DATA, CommandError, failure, success
from tau_coding.modes.rpc.server import DEFERRED, Handler, RpcServer

_RUNNING: dict[int, threading.Event] = {}  # id(server) -> the running login's cancel flag


def _auth_file() -> Path:
    return TauPaths.from_env(os.environ, Path.cwd()).auth_file


async def get_logins(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    try:
        current = logged_in(_auth_file())
    except LoginStoreError as exc:
        raise CommandError(str(exc)) from exc
    return {
        "providers": [
            {"id": name, "name": spec.name, "flow": spec.flow, "loggedIn": name in current}
            for name, spec in login_providers(os.environ).items()
        ]
    }


async def login(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    name = fields.text("provider", non_empty=True)
    spec = login_providers(os.environ).get(name)
    if spec is None:
        raise CommandError(f"Unknown login provider {name!r}; get_logins lists them")
    if id(server) in _RUNNING:
        raise CommandError("A login is already running; finish it or send abort_login")
    loop = asyncio.get_running_loop()
    cancelled = _RUNNING[id(server)] = threading.Event()
    server.on_shutdown.append(cancelled.set)

    def send(event: dict[str, Any]) -> None:
        loop.call_soon_threadsafe(server.out.send, {"provider": name, **event})

    def show(prompt: LoginPrompt) -> None:
        extra = {"userCode": prompt.user_code} if prompt.user_code else {}
        send({"type": "login_url", "url": prompt.url, "instructions": prompt.instructions, **extra})

    hooks = LoginHooks(
        show=show,
        progress=lambda line: send({"type": "login_progress", "message": line}),
        cancelled=cancelled,
    )

    async def run() -> None:
        try:
            entry = await asyncio.to_thread(run_login, spec, hooks, os.environ)
            save_login(_auth_file(), name, entry)
        except (LoginError, LoginStoreError, OSError) as exc:
            server.out.send(failure("login", request_id, str(exc)))
        else:
            server.out.send(success("login", request_id, {"provider": name}))
        finally:
            _RUNNING.pop(id(server), None)
            server.on_shutdown.remove(cancelled.set)

    server.spawn(run())
    return DEFERRED


async def abort_login(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    running = _RUNNING.get(id(server))
    if running is None:
        raise CommandError("No login is running")
    running.set()
    return NO_DATA


async def logout(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    name = fields.text("provider", non_empty=True)
    try:
        removed = remove_login(_auth_file(), name)
    except (LoginStoreError, OSError) as exc:
        raise CommandError(str(exc)) from exc
    if not removed:
        raise CommandError(f"No credentials for {name!r} in auth.json")
    return {"provider": name}


LOGIN_HANDLERS: dict[str, Handler] = {
    "get_logins": get_logins,
    "login": login,
    "abort_login": abort_login,
    "logout": logout,
}
