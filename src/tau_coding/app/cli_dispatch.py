"""What ``tau`` does once its arguments are parsed: pick a mode and hand over to it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tau_coding.common import collector
from tau_coding.common.diagnostics import warning_line
from tau_coding.common.exit_codes import EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~10 ms); mypy knows the name
if TYPE_CHECKING:
    from typing import Any

    from tau_agent.content import ImageContent
    from tau_coding.config.paths import TauPaths
    from tau_coding.config.settings import Settings
    from tau_coding.modes.interactive.session_port import CodingSessionPort
    from tau_coding.modes.interactive.tui_builtins import TuiBuiltins
    from tau_coding.modes.interactive.type_ahead import TypeAhead
    from tau_coding.session.control import SessionControl


def _fail(message: str) -> int:
    sys.stderr.write(f"tau: {message}\n")
    return EXIT_USAGE


def dispatch(args: Any) -> int:
    if args.list_models is not None:  # before the signal handlers: listing starts no child
        return _list_models(args)
    from tau_coding.app import exit_signals

    exit_signals.install()
    if args.export is not None:
        return _export(args)
    if args.all:
        return _fail("--all goes with --list-models")
    chosen_otherwise = {
        "--session": args.session,
        "--continue": args.continue_session,
        "--resume": args.resume,
        "--no-session": args.no_session,
    }
    clash = [flag for flag, given in chosen_otherwise.items() if args.fork and given]
    if clash:
        return _fail(f"--fork cannot be combined with {', '.join(clash)}")
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


def _export(args: Any) -> int:
    """``tau --export SESSION [OUT]``: Pi's form, the output file named by the next word."""
    from tau_coding.app.wiring import session_manager
    from tau_coding.session.store.export import export_session
    from tau_coding.session.store.manager import SessionNotFoundError

    if len(args.prompt) > 1:
        return _fail("--export takes a session and at most one output file")
    out = Path(args.prompt[0]).expanduser() if args.prompt else None
    try:
        source = session_manager(_options(args), os.environ, Path.cwd()).resolve(args.export)
        written = export_session(source, out)
    except SessionNotFoundError as exc:
        return _fail(str(exc))
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"tau: cannot export {args.export}: {exc}\n")
        return EXIT_RUN_FAILED
    sys.stdout.write(f"Exported to: {written}\n")
    return EXIT_OK


def _list_models(args: Any) -> int:
    """``--list-models [search]``: the models usable now; with ``--all``, the whole catalogue."""
    # Not wiring: listing needs the catalogue (and, without --all, keys), not a session's machinery.
    if args.all:
        return list_catalogue(args.list_models)
    from tau_coding.app.model_choice import available_models
    from tau_coding.modes.list_models import list_models

    models = available_models(_options(args), os.environ, Path.cwd(), warn=_warn)
    return list_models(args.list_models, models, sys.stdout, sys.stderr)


def list_catalogue(search: str) -> int:
    """``--list-models [search] --all``: the whole catalogue plus models.json."""
    from tau_coding.app.models_file import listed_models
    from tau_coding.config.paths import TauPaths
    from tau_coding.modes.list_models import list_models

    models = listed_models(TauPaths.from_env(os.environ, Path.cwd()), _warn)
    return list_models(search, models, sys.stdout, sys.stderr, everything=True)


def _is_tty(stream: Any) -> bool:
    return stream is not None and stream.isatty()


def _trust_project_only() -> int:
    from tau_coding.config.paths import TauPaths
    from tau_coding.extensions.trust import TrustStore

    paths = TauPaths.from_env(os.environ, Path.cwd())
    TrustStore(paths.tau_home).trust(paths.cwd)
    sys.stderr.write(f"tau: trusted {paths.cwd}: its .tau/extensions and hooks will run\n")
    return EXIT_OK


def _options(args: Any, *, can_ask: bool = False) -> Any:
    """Options from the command line; ``can_ask``: the frontend can ask for approvals."""
    from tau_coding.app.options import Options

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
        no_builtin_tools=args.no_builtin_tools,
        no_skills=args.no_skills,
        no_prompt_templates=args.no_prompt_templates,
        no_context_files=args.no_context_files,
        skills=args.skill or (),
        prompt_templates=args.prompt_template or (),
        fork=args.fork,
        max_turns=args.max_turns,
        extensions=args.extension or (),
        no_extensions=args.no_extensions,
        trust_project=args.trust_project,
        extension_args=args.extension_args,
        permission_mode=args.permission_mode,
        can_ask=can_ask,
        trace_file=args.trace_file,
        no_checkpoints=args.no_checkpoints,
    )


def _scope_models(control: Any, flag: str | None, enabled: object) -> list[str]:
    """Set what cycling goes through from ``--models`` (else the ``enabledModels`` setting);
    returns a warning per pattern that matches no available model."""
    from tau_coding.config.model_scope import resolve_model_scope, split_patterns

    if flag:
        patterns = split_patterns(flag)
    else:
        patterns = [str(p) for p in enabled] if isinstance(enabled, list) else []
    if not patterns:
        return []
    control.scoped, warnings = resolve_model_scope(patterns, control.available_models())
    return warnings


def _enabled_models(args: Any) -> object:
    if args.models:
        return None
    from tau_coding.config.paths import TauPaths
    from tau_coding.config.settings import load_settings
    from tau_coding.extensions.trust import project_is_trusted

    paths = TauPaths.from_env(os.environ, Path.cwd())
    trusted = project_is_trusted(paths.tau_home, paths.cwd, trust_flag=bool(args.trust_project))
    return load_settings(paths.user_settings, paths.project_settings, project_trusted=trusted)[0].get(
        "enabledModels"
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
        control = open_controlled_session(
            _options(args, can_ask=True), os.environ, Path.cwd(), warn=_warn, ui=ui
        )
    except ConfigurationError as exc:
        return _fail(str(exc))
    control.session.input_source = "rpc"
    for warning in _scope_models(control, args.models, _enabled_models(args)):
        _warn(warning)
    collector.resume()
    return asyncio.run(run_rpc(control, protect_stdout(), ui))


def _interactive_mode(args: Any) -> int:
    """``tau``, ``tau "prompt"`` or ``tau -r`` in a terminal: the TUI over a real, persisted session.
    Keys typed while it starts are kept for the editor (modes/interactive/type_ahead.py).
    The cyclic collector stays off (``main`` paused it) until the app has shown the session and
    resumes it: what start-up makes (modules, the TUI, the session) lives on, so its passes
    found next to nothing and cost about a sixth of the imports' time."""
    from tau_coding.modes.interactive.type_ahead import TypeAhead

    type_ahead = TypeAhead.start(sys.stdin)  # first: the sooner, the fewer keys in line mode
    try:
        return _run_interactive(args, type_ahead)
    finally:
        type_ahead.restore()


def _run_interactive(args: Any, type_ahead: TypeAhead) -> int:
    """The TUI paints its first screen, then opens the session (``open_port``, in a worker
    thread): what only the session needs is imported and read after the editor shows. Problems
    found opening it are notices in the TUI (stderr is the TUI's screen by then); a
    configuration error closes the TUI and is printed as before."""
    from tau_coding.modes.interactive.frame_rate import use_frame_rate

    use_frame_rate()  # before anything imports Textual, which reads the rate once
    from tau_coding.config.paths import TauPaths
    from tau_coding.config.settings import load_settings
    from tau_coding.extensions.trust import project_is_trusted

    cwd = Path.cwd()
    paths = TauPaths.from_env(os.environ, cwd)
    trusted = project_is_trusted(paths.tau_home, cwd, trust_flag=bool(args.trust_project))
    settings = load_settings(paths.user_settings, paths.project_settings, project_trusted=trusted)[0]
    theme = settings.get("theme")
    fullscreen = bool(args.fullscreen) or settings.get("tui.fullscreen") is True
    prompts: list[tuple[str, list[ImageContent]]] = []
    if args.prompt:  # (prompt_input imports every tool: none is needed for a bare ``tau``'s first screen)
        from tau_coding.app.prompt_input import PromptInputError, build_prompts

        try:
            prompts = build_prompts(args.prompt, None, cwd)
        except PromptInputError as exc:
            return _fail(str(exc))
    if any(images for _, images in prompts):
        _warn("images named on the command line are sent in print mode only; this prompt goes without")
    if not fullscreen and not args.resume:  # inline, the editor first: drawn now, before Textual
        type_ahead.show_frame(sys.stdout, str(cwd), os.path.expanduser("~"))
    from tau_coding.modes.interactive.run import run_interactive  # Textual's app, with the echo running
    from tau_coding.modes.interactive.tui_builtins import TuiBuiltins

    opening = _SessionOpening(args, cwd, paths, trusted, settings)
    builtins = TuiBuiltins()  # the TUI's commands and keys, through the built-in extension
    try:
        return run_interactive(
            None,
            open_port=lambda: opening.open(builtins),
            initial_prompt=prompts[0][0] if prompts else None,
            more_prompts=[text for text, _ in prompts[1:]],
            theme_paths=[]
            if args.no_themes
            else [*(args.theme or ()), *_package_themes(settings, paths, trusted)],
            no_themes=args.no_themes,
            tau_home=paths.tau_home,
            theme=theme if isinstance(theme, str) else None,
            resume=bool(args.resume),
            ui=opening.ui,
            type_ahead=type_ahead,
            builtins=builtins,
            mentions=opening.mentions,
            fullscreen=fullscreen,
        )
    finally:
        opening.close()


class _SessionOpening:
    """The interactive session, opened when the TUI asks (``open``) and closed after it."""

    def __init__(self, args: Any, cwd: Path, paths: TauPaths, trusted: bool, settings: Settings) -> None:
        from tau_coding.extensions.ui import HeadlessUI, LateBoundUI

        self._args, self._cwd, self._paths = args, cwd, paths
        self._trusted, self._settings = trusted, settings
        self.notices: list[str] = []  # until the TUI shows them, warnings are kept here
        self.ui = LateBoundUI(HeadlessUI(self.notices.append))
        self.control: SessionControl | None = None

    def open(self, builtins: TuiBuiltins) -> tuple[CodingSessionPort, list[str]]:
        from tau_coding.app.session_setup import open_controlled_session
        from tau_coding.app.wiring import ConfigurationError, MissingCredentials
        from tau_coding.config.auth import AuthStore
        from tau_coding.config.settings import load_settings
        from tau_coding.modes.interactive.run import PortUnavailable
        from tau_coding.modes.interactive.session_port import CodingSessionPort

        args, cwd, paths, trusted, notices = self._args, self._cwd, self._paths, self._trusted, self.notices
        options = _options(args, can_ask=True)
        warn, ui, frontend = notices.append, self.ui, builtins.activate
        try:
            try:
                control = open_controlled_session(
                    options, os.environ, cwd, warn=warn, ui=ui, frontend=frontend
                )
            except MissingCredentials as exc:  # open anyway: /login and /model are in the TUI
                options.keyless = True
                control = open_controlled_session(
                    options, os.environ, cwd, warn=warn, ui=ui, frontend=frontend
                )
                notices.append(f"{exc}. /login <provider> stores a login or key; /model picks another model.")
        except ConfigurationError as exc:
            raise PortUnavailable(str(exc)) from exc
        self.control = control
        control.session.input_source = "interactive"
        notices.extend(_scope_models(control, args.models, self._settings.get("enabledModels")))
        port = CodingSessionPort(
            control,
            auth=AuthStore(paths.auth_file),
            settings=lambda: (
                load_settings(paths.user_settings, paths.project_settings, project_trusted=trusted)[0].values
            ),
        )
        return port, notices

    def mentions(self) -> list[str]:
        mcp = self.control.session.mcp if self.control is not None else None
        return mcp.resource_mentions() if mcp is not None else []

    def close(self) -> None:
        if self.control is not None:
            self.control.session.close()


def _package_themes(settings: Settings, paths: TauPaths, trusted: bool) -> list[str]:
    """The active packages' theme files (none read unless the ``packages`` setting is set)."""
    if not settings.get("packages"):
        return []
    from tau_coding.packages.resource_paths import package_resources

    return [str(p) for p in package_resources(paths, trusted=trusted).themes]


def _print_mode(args: Any, stdin_text: str | None) -> int:
    import asyncio

    from tau_coding.app.prompt_input import PromptInputError, build_prompts
    from tau_coding.app.session_setup import open_controlled_session
    from tau_coding.app.wiring import ConfigurationError
    from tau_coding.common import quick_exit
    from tau_coding.modes.print_mode import run_print

    cwd = Path.cwd()
    try:
        prompts = build_prompts(args.prompt, stdin_text, cwd)
    except PromptInputError as exc:
        return _fail(str(exc))
    try:  # with its control, so ``tau -p /reload`` is the one reload the TUI and RPC run
        control = open_controlled_session(_options(args), os.environ, cwd, warn=_warn)
    except ConfigurationError as exc:
        return _fail(str(exc))
    collector.resume()
    try:
        ok = asyncio.run(
            run_print(
                control.session,
                prompts,
                json_output=args.mode == "json",
                out=sys.stdout,
                err=sys.stderr,
                control=control,
            )
        )
    finally:
        control.session.close()
    quick_exit.allow()  # printed, flushed and closed: the heap need not be freed at exit
    return EXIT_OK if ok else EXIT_RUN_FAILED
