"""``tau checkpoints gc``: prune checkpoints older than ``checkpoints.retentionDays`` (default
30) and those no session refers to any more (docs/checkpoints.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tau_coding.app.checkpoint_setup import retention_days
from tau_coding.checkpoints.retention import collect, referenced_ids
from tau_coding.common.exit_codes import EXIT_OK, EXIT_USAGE
from tau_coding.config.paths import TauPaths
from tau_coding.config.settings import load_settings


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tau checkpoints", description="Manage the checkpoints /rewind uses."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    gc = commands.add_parser("gc", help="prune old checkpoints and those of deleted sessions")
    gc.add_argument(
        "--retention-days", type=float, default=None, help="keep this many days (default: setting)"
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return EXIT_OK if exc.code == 0 else EXIT_USAGE
    paths = TauPaths.from_env(os.environ, Path.cwd())
    settings, problems = load_settings(paths.user_settings, paths.project_settings)
    for problem in problems:
        sys.stderr.write(f"tau: warning: {problem}\n")
    days = (
        args.retention_days if args.retention_days is not None else settings.get("checkpoints.retentionDays")
    )
    keep = referenced_ids(paths.sessions_dir.rglob("*.jsonl")) if paths.sessions_dir.is_dir() else set()
    report = collect(paths.checkpoints_dir, keep=keep, retention_days=retention_days(days))
    sys.stdout.write(report.line() + "\n")
    return EXIT_OK


__all__ = ["main"]
