"""``tau login [provider]`` and ``tau logout [provider]``: subscription logins from the shell.

``tau login`` alone lists the providers and which are logged in; the extensions a session would
load are loaded first, so a provider an extension declared a login for is listed too. A login prints the URL to
open (and tries to open it in a desktop browser), waits for the provider to redirect back
(or, for a device code, for the user to enter it), and stores the tokens in auth.json. A
failure is one line on stderr, exit 1, and auth.json is left as it was.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from tau_coding.common.exit_codes import EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE
from tau_coding.config.oauth.browser import open_in_browser
from tau_coding.config.oauth.flows import LoginError, LoginHooks, LoginPrompt, login
from tau_coding.config.oauth.providers import login_providers
from tau_coding.config.oauth.store import LoginStoreError, logged_in, remove_login, save_login
from tau_coding.config.paths import TauPaths


def _show(prompt: LoginPrompt) -> None:
    sys.stdout.write(f"{prompt.instructions}\nOpen this URL: {prompt.url}\n")
    sys.stdout.flush()


def _say(line: str) -> None:
    sys.stdout.write(f"{line}\n")
    sys.stdout.flush()


def _load_extension_logins(paths: TauPaths) -> object:
    """Load the user's (and a trusted project's, and packages') extensions, so the logins they
    declare (``register_provider(..., oauth=)``) are offered as ``/login`` offers them. Nothing
    is imported when there is no extension. The host is returned to keep it loaded."""
    from tau_coding.app.extension_presence import maybe_build_host
    from tau_coding.config.settings import load_settings
    from tau_coding.extensions.trust import project_is_trusted

    trusted = project_is_trusted(paths.tau_home, paths.cwd, trust_flag=False)
    settings = load_settings(paths.user_settings, paths.project_settings, project_trusted=trusted)[0]
    return maybe_build_host(
        paths,
        settings.values,
        cli_paths=(),
        no_extensions=False,
        trust_project=False,
        warn=lambda line: sys.stderr.write(f"tau: {line}\n"),
        ui=None,
        builtin=lambda api: None,
    )


def main(command: str, args: list[str], environ: Mapping[str, str] = os.environ) -> int:
    paths = TauPaths.from_env(environ, Path.cwd())
    auth_file = paths.auth_file
    host = _load_extension_logins(paths)  # noqa: F841 -- kept alive while logging in
    providers = login_providers(environ)
    if len(args) > 1 or any(a.startswith("-") for a in args):
        sys.stderr.write(f"usage: tau {command} [{'|'.join(providers)}]\n")
        return EXIT_USAGE
    try:
        current = logged_in(auth_file)
        if command == "logout":
            return _logout(args[0] if args else None, current, auth_file)
        if not args:
            for name, spec in providers.items():
                _say(f"{name:16} {spec.name}{'  (logged in)' if name in current else ''}")
            return EXIT_OK
        found = providers.get(args[0])
        if found is None:
            sys.stderr.write(f"tau: unknown login provider {args[0]!r}; known: {', '.join(providers)}\n")
            return EXIT_USAGE
        spec = found
        _say(f"Logging in to {spec.name}…")
        hooks = LoginHooks(show=_show, progress=_say, open_url=lambda url: open_in_browser(url, environ))
        save_login(auth_file, spec.id, login(spec, hooks, environ))
    except (LoginError, LoginStoreError, OSError) as exc:
        sys.stderr.write(f"tau: {exc}\n")
        return EXIT_RUN_FAILED
    _say(f"Logged in to {spec.name}; saved in {auth_file}")
    return EXIT_OK


def _logout(provider: str | None, current: list[str], auth_file: Path) -> int:
    if provider is None:
        if len(current) != 1:
            which = ", ".join(current) if current else "none"
            sys.stderr.write(f"tau: name the login to forget (logged in: {which})\n")
            return EXIT_USAGE
        provider = current[0]
    if not remove_login(auth_file, provider):
        sys.stderr.write(f"tau: no credentials for {provider!r} in {auth_file}\n")
        return EXIT_RUN_FAILED
    _say(f"Logged out of {provider}")
    return EXIT_OK
