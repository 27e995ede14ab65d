"""``tau install|remove|update|list``: manage packages, Pi's way.

    tau install SOURCE [-l]     fetch SOURCE and add it to the ``packages`` setting
    tau remove SOURCE [-l]      drop it from the setting and delete what was fetched
    tau update [SOURCE] [-l]    fetch the newest of each package's ref (git) or requirement (pip)
    tau list                    the packages of the user's settings and the project's

Without ``-l`` the user's settings (``TAU_HOME/settings.json``) are edited; with ``-l`` the
project's (``.tau/settings.json``), and only once the project is trusted (``tau
--trust-project``): a project package is code that runs. A failure is one line on stderr and
exit code 1 (2 for a bad command line); the settings file changes only after a fetch succeeded.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from tau_coding.config.paths import TauPaths
from tau_coding.extensions.trust import TrustStore
from tau_coding.packages.active import package_root, settings_file
from tau_coding.packages.manifest import KINDS, ManifestError, read_manifest
from tau_coding.packages.settings_entries import SettingsFileError, add_entry, entries_in, remove_entry
from tau_coding.packages.source import PackageSource, SourceError, parse_source
from tau_coding.packages.store import FetchError, discard, fetch, package_dir

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class PackageCliError(Exception):
    """One line for the user."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tau", description="Manage Tau packages.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, needs_source in (("install", True), ("remove", True), ("update", False)):
        command = commands.add_parser(name)
        command.add_argument("source", nargs=None if needs_source else "?")
        command.add_argument("-l", "--local", action="store_true", help="the project's settings")
    commands.add_parser("list")
    return parser


def main(
    argv: Sequence[str],
    *,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    paths = TauPaths.from_env(os.environ if environ is None else environ, cwd or Path.cwd())
    try:
        args = _parser().parse_args(list(argv))
    except SystemExit as exc:
        return EXIT_OK if exc.code == 0 else EXIT_USAGE
    try:
        if args.command == "list":
            _list(paths, out)
            return EXIT_OK
        scope = "project" if args.local else "user"
        if scope == "project" and not TrustStore(paths.tau_home).is_trusted(paths.cwd):
            raise PackageCliError(
                f"project {paths.cwd} is not trusted; run `tau --trust-project` in it before installing packages"
            )
        if args.command == "install":
            out.write(_install(paths, scope, args.source) + "\n")
        elif args.command == "remove":
            out.write(_remove(paths, scope, args.source) + "\n")
        else:
            for line in _update(paths, scope, args.source):
                out.write(line + "\n")
    except (PackageCliError, SourceError, FetchError, ManifestError, SettingsFileError) as exc:
        err.write(f"tau {args.command}: {exc}\n")
        return EXIT_FAILED
    return EXIT_OK


def _source(paths: TauPaths, text: str) -> PackageSource:
    return parse_source(text, paths.cwd)  # a path typed on the command line is the shell's


def _install(paths: TauPaths, scope: str, text: str) -> str:
    source = _source(paths, text)
    directory = fetch(package_root(paths, scope), source, update=True)
    manifest = read_manifest(directory)
    file = settings_file(paths, scope)
    for entry in entries_in(file):  # one entry per package: another ref of it is replaced
        try:
            listed = parse_source(entry.source, file.parent)
        except SourceError:
            continue
        if (listed.kind, listed.spec) == (source.kind, source.spec) and listed.key != source.key:
            remove_entry(file, entry.source)
    added = add_entry(file, source.key)
    offered = ", ".join(f"{len(manifest.of(k))} {k}" for k in KINDS if manifest.of(k)) or "nothing yet"
    verb = "installed" if added else "already listed; fetched again"
    return f"{source.key}: {verb} ({offered})"


def _remove(paths: TauPaths, scope: str, text: str) -> str:
    source = _source(paths, text)
    if not remove_entry(settings_file(paths, scope), source.key) and not remove_entry(
        settings_file(paths, scope), text
    ):
        raise PackageCliError(f"{text}: not in {settings_file(paths, scope)}")
    discard(package_root(paths, scope), source)
    return f"{source.key}: removed"


def _update(paths: TauPaths, scope: str, only: str | None) -> list[str]:
    file = settings_file(paths, scope)
    lines = []
    for entry in entries_in(file):
        source = parse_source(entry.source, file.parent)
        if only is not None and only not in (entry.source, source.key):
            continue
        fetch(package_root(paths, scope), source, update=True)
        lines.append(f"{source.key}: up to date")
    if only is not None and not lines:
        raise PackageCliError(f"{only}: not in {file}")
    return lines


def _list(paths: TauPaths, out: TextIO) -> None:
    for scope in ("user", "project"):
        file = settings_file(paths, scope)
        entries = entries_in(file)
        if not entries:
            continue
        out.write(f"{scope} ({file}):\n")
        for entry in entries:
            try:
                source = parse_source(entry.source, file.parent)
                present = package_dir(package_root(paths, scope), source).is_dir()
            except SourceError:
                present = False
            out.write(f"  {entry.source}{'' if present else '  (not installed)'}\n")
