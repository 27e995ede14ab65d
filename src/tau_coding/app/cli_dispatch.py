"""What ``tau`` does once its arguments are parsed: pick a mode and hand over to it."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tau_coding.common.diagnostics import warning_line
from tau_coding.common.exit_codes import EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE

if TYPE_CHECKING:
    from tau_coding.modes.interactive.type_ahead import TypeAhead


def _fail(message: str) -> int:
    sys.stderr.write(f"tau: {message}\n")
    return EXIT_USAGE


def dispatch(args: Any) -> int:
    from tau_coding.app import exit_signals

    exit_signals.install()
    if args.list_models is not None:
        from tau_coding.app.wiring import load_models
        from tau_coding.config.paths import TauPaths
        from tau_coding.modes.list_models import list_models

        paths = TauPaths.from_env(os.environ, Path.cwd())
        config = load_models(paths, lambda m: sys.stderr.write(warning_line(m)))
        return list_models(args.list_models, config, sys.stdout, sys.stderr)
    if args.mode == "rpc":
        return _rpc_mode(args)
    if args.max_turns is not None and args.max_turns < 1:
        return _fail("--max-turns must be 1 or more")
    if args.trust_project and not args.prompt and _is_tty(sys.stdin):
        return _trust_project_only()
    interactive = not args.print_mode and args.mode is None and _is_tty(sys.stdin) and _is_tty(sys.stdout)
    if interactive:
        return _interactive_mode(args)
    if args.resume:
        return _fail("--resume picks a session interactively; in print mode use --session ID or -c")
    stdin_text = None
    if sys.stdin is not None and not sys.stdin.isatty():
        from tau_coding.app.prompt_input import PromptInputError, read_piped_stdin

        try:
            stdin_text = read_piped_stdin(sys.stdin.buffer)
        except PromptInputError as exc:
            return _fail(str(exc))
    if args.trust_project and not args.prompt and not (stdin_text or "").strip():
        return _trust_project_only()
    if not args.prompt and not (stdin_text or "").strip():
        return _fail('no prompt given (try tau -p "...", or run tau in a terminal)')
    return _print_mode(args, stdin_text)


def _is_tty(stream: Any) -> bool:
    return stream is not None and stream.isatty()


def _trust_project_only() -> int:
    from tau_coding.config.paths import TauPaths
    from tau_coding.extensions.trust import TrustStore

    paths = TauPaths.from_env(os.environ, Path.cwd())
    TrustStore(paths.tau_home).trust(paths.cwd)
    sys.stderr.write(f"tau: trusted {paths.cwd}: its .tau/extensions and hooks will run\n")
    return EXIT_OK


def _options(args: Any) -> Any:
    from tau_coding.app.wiring import Options

    return Options(
        provider=args.provider,
        model=args.model,
        thinking=args.thinking,
        api_key=args.api_key,
        continue_session=args.continue_session,
        session=args.session,
        session_dir=args.session_dir,
        no_session=args.no_session,
        tools=args.tools,
        no_tools=args.no_tools,
        system_prompt=args.system_prompt,
        append_system_prompt=args.append_system_prompt or (),
        no_skills=args.no_skills,
        no_prompt_templates=args.no_prompt_templates,
        max_turns=args.max_turns,
        extensions=args.extension or (),
        no_extensions=args.no_extensions,
        trust_project=args.trust_project,
        extension_args=args.extension_args,
    )


def _warn(message: str) -> None:
    sys.stderr.write(warning_line(message))


def _rpc_mode(args: Any) -> int:
    """Commands on stdin, responses and events on stdout, until stdin ends."""
    import asyncio

    from tau_coding.app.session_setup import open_controlled_session
    from tau_coding.app.wiring import ConfigurationError
    from tau_coding.extensions.ui import HeadlessUI, LateBoundUI
    from tau_coding.modes.rpc.run import run_rpc
    from tau_coding.modes.rpc.stdio import protect_stdout

    if args.prompt:
        return _fail("rpc mode takes prompts on stdin, not as arguments")
    ui = LateBoundUI(HeadlessUI(_warn))
    try:
        control = open_controlled_session(_options(args), os.environ, Path.cwd(), warn=_warn, ui=ui)
    except ConfigurationError as exc:
        return _fail(str(exc))
    control.session.input_source = "rpc"
    return asyncio.run(run_rpc(control, protect_stdout(), ui))


def _interactive_mode(args: Any) -> int:
    """``tau``, ``tau "prompt"`` or ``tau -r`` in a terminal: the TUI over a real, persisted session.
    Keys typed while it starts are kept for the editor (modes/interactive/type_ahead.py)."""
    from tau_coding.modes.interactive.type_ahead import TypeAhead

    type_ahead = TypeAhead.start(sys.stdin)  # first: the sooner, the fewer keys in line mode
    try:
        return _run_interactive(args, type_ahead)
    finally:
        type_ahead.restore()


def _run_interactive(args: Any, type_ahead: TypeAhead) -> int:
    from tau_coding.app.session_setup import open_controlled_session
    from tau_coding.app.wiring import ConfigurationError, MissingCredentials
    from tau_coding.config.auth import AuthStore
    from tau_coding.config.paths import TauPaths
    from tau_coding.config.settings import load_settings
    from tau_coding.extensions.trust import project_is_trusted
    from tau_coding.extensions.ui import HeadlessUI, LateBoundUI
    from tau_coding.modes.interactive.run import run_interactive
    from tau_coding.modes.interactive.session_port import CodingSessionPort

    cwd = Path.cwd()
    paths = TauPaths.from_env(os.environ, cwd)
    ui = LateBoundUI(HeadlessUI(_warn))
    notices: list[str] = []
    options = _options(args)
    try:
        try:
            control = open_controlled_session(options, os.environ, cwd, warn=_warn, ui=ui)
        except MissingCredentials as exc:  # open anyway: /login and /model are in the TUI
            options.keyless = True
            control = open_controlled_session(options, os.environ, cwd, warn=_warn, ui=ui)
            notices.append(f"{exc}. /login <provider> <key> stores a key; /model picks another model.")
    except ConfigurationError as exc:
        return _fail(str(exc))
    control.session.input_source = "interactive"
    trusted = project_is_trusted(paths.tau_home, cwd, trust_flag=bool(args.trust_project))
    settings = load_settings(paths.user_settings, paths.project_settings, project_trusted=trusted)[0]
    scoped = settings.get("enabledModels") or []
    port = CodingSessionPort(
        control,
        auth=AuthStore(paths.auth_file),
        settings=lambda: (
            load_settings(paths.user_settings, paths.project_settings, project_trusted=trusted)[0].values
        ),
        scoped=[str(pattern) for pattern in scoped],
    )
    theme = settings.get("theme")
    try:
        prompt = " ".join(args.prompt)
        return run_interactive(
            port,
            initial_prompt=prompt or None,
            tau_home=paths.tau_home,
            theme=theme if isinstance(theme, str) else None,
            resume=bool(args.resume),
            ui=ui,
            type_ahead=type_ahead,
            notices=notices,
        )
    finally:
        control.session.close()


def _print_mode(args: Any, stdin_text: str | None) -> int:
    import asyncio

    from tau_coding.app.prompt_input import PromptInputError, build_prompt
    from tau_coding.app.wiring import ConfigurationError, build_session
    from tau_coding.modes.print_mode import run_print

    cwd = Path.cwd()
    try:
        prompt, images = build_prompt(args.prompt, stdin_text, cwd)
    except PromptInputError as exc:
        return _fail(str(exc))
    try:
        session = build_session(_options(args), os.environ, cwd, warn=_warn)
    except ConfigurationError as exc:
        return _fail(str(exc))
    try:
        ok = asyncio.run(
            run_print(
                session, prompt, images, json_output=args.mode == "json", out=sys.stdout, err=sys.stderr
            )
        )
    finally:
        session.close()
    return EXIT_OK if ok else EXIT_RUN_FAILED
