"""The ``tau`` command: the entry point.

Only ``sys`` and ``os`` are imported here, so ``tau --version`` answers without loading the
agent, the HTTP stack, any UI, or even pathlib and typing; everything else is in
``cli_dispatch``, imported once there is real work.
"""

from __future__ import annotations

import os
import sys

from tau_coding import __version__
from tau_coding.common import collector
from tau_coding.common.exit_codes import EXIT_INTERRUPTED, EXIT_OK

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~10 ms); mypy knows the name
if TYPE_CHECKING:
    from collections.abc import Callable

SUBCOMMANDS = ("mcp", "install", "remove", "update", "list", "batch", "checkpoints", "login", "logout")


def main(argv: list[str] | None = None) -> int:
    """Run the ``tau`` command; without ``argv`` (run as the program), a finished print-mode
    run may end the process here instead of returning (``common/quick_exit.py``)."""
    if argv is None:
        code = _main(sys.argv[1:])
        from tau_coding.common import quick_exit

        quick_exit.leave(code)
        return code
    return _main(list(argv))


def _main(argv: list[str]) -> int:
    if argv in (["--version"], ["-v"]):  # the common case answers before argparse is even built
        sys.stdout.write(f"tau {__version__}\n")
        return EXIT_OK
    collector.pause()  # the modes resume it once set up (common/collector.py)
    _compile_dataclasses_once()
    if argv[:1] and argv[0] in SUBCOMMANDS:  # a `tau batch` may run for hours: collect as usual
        collector.resume()
    if argv[:1] == ["mcp"]:  # `tau mcp add|remove|list|get ...`
        from tau_coding.mcp.cli import main as mcp_main

        return mcp_main(argv[1:])
    if argv[:1] and argv[0] in ("install", "remove", "update", "list"):  # packages (docs/packages.md)
        from tau_coding.packages.cli import main as packages_main

        return packages_main(argv)
    if argv[:1] == ["batch"]:  # `tau batch TASKS.jsonl --out RESULTS.jsonl ...`
        from tau_coding.batch.cli import main as batch_main

        return batch_main(argv[1:])
    if argv[:1] == ["checkpoints"]:  # `tau checkpoints gc`
        from tau_coding.app.checkpoints_cli import main as checkpoints_main

        return checkpoints_main(argv[1:])
    if argv[:1] in (["login"], ["logout"]):  # `tau login <provider>`, `tau logout [provider]`
        from tau_coding.app.login_cli import main as login_main

        return login_main(argv[0], argv[1:])
    search = _catalogue_search(argv)
    if search is not None:  # `tau --list-models [search] --all` reads no settings or keys: no argparse
        from tau_coding.app.catalogue_list import list_catalogue

        return _guarded(lambda: list_catalogue(search))
    from tau_coding.app.cli_args import build_parser
    from tau_coding.app.cli_dispatch import dispatch

    parser = build_parser()
    if "-h" in argv or "--help" in argv:
        return _help(parser, argv)
    args, unknown = parser.parse_known_args(argv)  # unknown: maybe flags that extensions declare
    bad = [word for word in unknown if not word.startswith("--")]
    if bad or (unknown and args.no_extensions and not args.extension) or (unknown and not args.prompt):
        parser.error(f"unrecognized arguments: {' '.join(bad or unknown)}")
    args.extension_args = unknown
    return _guarded(lambda: dispatch(args))


def _compile_dataclasses_once() -> None:
    """Every other command imports some hundred dataclasses; their methods' code is kept
    between runs under TAU_HOME (common/dataclass_code.py), as TauPaths finds TAU_HOME."""
    from tau_coding.common import regex_code
    from tau_coding.common.dataclass_code import install

    regex_code.install(install(os.path.expanduser(os.environ.get("TAU_HOME") or os.path.join("~", ".tau"))))


def _catalogue_search(argv: list[str]) -> str | None:
    """The search of exactly ``--list-models [search] --all``, else None (argparse takes the rest)."""
    if len(argv) not in (2, 3) or argv[0] != "--list-models" or argv[-1] != "--all":
        return None
    search = argv[1] if len(argv) == 3 else ""
    return None if search.startswith("-") else search


def _guarded(run: Callable[[], int]) -> int:
    try:
        return run()
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (tau ... | head): not an error of the run
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _help(parser: object, argv: list[str]) -> int:
    """Tau's own flags, then those the user's extensions add.

    ``parser`` is an argparse parser, typed loosely: argparse is not imported at module level.
    """
    from tau_coding.app.extension_help import extension_flags_help

    args, _ = parser.parse_known_args([a for a in argv if a not in ("-h", "--help")])  # type: ignore[attr-defined]
    parser.print_help()  # type: ignore[attr-defined]
    sys.stdout.write(
        extension_flags_help(
            args.extension or (), no_extensions=args.no_extensions, trust_project=args.trust_project
        )
    )
    return EXIT_OK
