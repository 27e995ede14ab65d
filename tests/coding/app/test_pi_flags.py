"""Every flag of ``pi --help`` (0.73.1) is a ``tau`` flag of the same shape."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tau_coding.app.cli_args import build_parser

PI_HELP = Path(__file__).resolve().parents[2] / "data" / "pi" / "help-0.73.1-options.txt"
_FLAG_LINE = re.compile(r"^  (?P<names>-[^ <,]+(?:, -[^ <,]+)*)(?: (?P<value><[^>]+>|\[[^\]]+\]))?")


def _pi_flags() -> list[tuple[list[str], str | None]]:
    flags = []
    for line in PI_HELP.read_text().splitlines():
        match = _FLAG_LINE.match(line)
        if match:
            flags.append((match["names"].split(", "), match["value"]))
    return flags


def test_the_reference_lists_pis_flags() -> None:
    names = {name for names, _ in _pi_flags() for name in names}
    assert {"--fork", "--models", "-nbt", "--no-context-files", "--export", "--verbose"} <= names
    assert len(_pi_flags()) == 33


def test_tau_accepts_every_pi_flag_with_the_same_arity() -> None:
    actions = build_parser()._option_string_actions
    for names, value in _pi_flags():
        for name in names:
            assert name in actions, f"tau lacks {name}"
            action = actions[name]
            takes_value = action.nargs != 0 and not isinstance(
                action, argparse._StoreTrueAction | argparse._VersionAction | argparse._HelpAction
            )
            assert takes_value == (value is not None), (
                f"{name}: value {value!r} but tau's nargs={action.nargs}"
            )
