"""Regenerate the session goldens.

    .venv/bin/python tests/golden/sessions/regenerate.py            # tau-v3.jsonl (what Tau writes)
    PI_PACKAGE=.../pi-coding-agent/dist/index.js \\
    .venv/bin/python tests/golden/sessions/regenerate.py --pi       # also Pi's reading of every golden

``--out FILE`` writes the Tau session elsewhere (the tests use it to compare with the checked-in
file). ``--pi`` needs node and npm's ``@mariozechner/pi-coding-agent`` (0.73.1 was used); it
rewrites ``<name>.pi-context.json`` next to each ``*.jsonl`` with what Pi's own SessionManager
makes of the file (leaf, context messages, model, thinking level, name, labels).
"""

from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import sys
from pathlib import Path

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import (
    AssistantMessage,
    BashExecutionMessage,
    Cost,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog

HERE = Path(__file__).resolve().parent
T0 = 1764500000000  # 2025-11-30T10:53:20Z, in ms


def write_tau_golden(path: Path) -> None:
    """A session as Tau writes it, with fixed ids and clock: every entry kind, a branch, a
    compaction, and a final navigation (a leaf marker) back to an earlier reply."""
    counter = itertools.count(1)
    seconds = itertools.count(1)
    header = SessionHeader(
        id="7a1e0c3b-5d2f-4e8a-9b6c-0d1f2e3a4b5c",
        timestamp="2025-11-30T10:53:20.000Z",
        cwd="/home/user/project",
    )
    log = SessionLog(
        JsonlSessionStorage.create(path, header, fsync="never"),
        new_id=lambda: f"{next(counter):08x}",
        clock=lambda: f"2025-11-30T10:53:{20 + next(seconds):02d}.000Z",
    )
    usage = Usage(100, 20, 0, 0, 0, 120, Cost(0.0003, 0.0003, 0.0, 0.0, 0.0006))

    def reply(text: str, ts: int, *calls: ToolCall) -> AssistantMessage:
        return AssistantMessage(
            [TextContent(text), *calls],
            api="anthropic-messages",
            provider="anthropic",
            model="claude-sonnet-4-5",
            usage=usage,
            stop_reason="toolUse" if calls else "stop",
            timestamp=ts,
        )

    log.append_model_change("anthropic", "claude-sonnet-4-5")
    log.append_thinking_level_change("medium")
    log.append_message(UserMessage("Count the lines in README.md — ünïcødé", T0 + 1000))
    log.append_message(
        reply("Counting.", T0 + 2000, ToolCall("toolu_1", "bash", {"command": "wc -l README.md"}))
    )
    log.append_message(
        ToolResultMessage("toolu_1", "bash", [TextContent("42 README.md\n")], timestamp=T0 + 3000)
    )
    answer = log.append_message(reply("README.md has 42 lines.", T0 + 4000))
    log.set_label(answer.id, "count")
    log.append_message(BashExecutionMessage("git status", "clean\n", 0, timestamp=T0 + 5000))
    log.append_custom("my-ext", {"count": 1})
    log.append_custom_message("my-ext", "Remember to run the tests.", True, {"source": "ext"})
    log.append_message(UserMessage("And src/?", T0 + 6000))
    log.append_message(reply("src/ has 3 files.", T0 + 7000))
    log.append_branch_summary(answer.id, "Asked about src/ (3 files).")
    kept = log.append_message(UserMessage("Summarise README.md", T0 + 8000))
    log.append_message(reply("It is a greeting.", T0 + 9000))
    log.append_compaction(
        "Lines were counted; README.md is a greeting.",
        kept.id,
        3000,
        {"readFiles": ["README.md"], "modifiedFiles": []},
    )
    log.append_message(UserMessage("Thanks", T0 + 10000))
    final = log.append_message(reply("You're welcome.", T0 + 11000))
    log.set_name("Counting lines")
    log.navigate(final.id)
    log.close()


def write_pi_contexts() -> None:
    script = HERE / "pi" / "read_context.mjs"
    for session in sorted(HERE.glob("*.jsonl")):
        out = subprocess.run(
            ["node", str(script), str(session)], check=True, capture_output=True, text=True, env=os.environ
        )
        session.with_suffix(".pi-context.json").write_text(out.stdout)
        print(f"wrote {session.with_suffix('.pi-context.json').name}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=HERE / "tau-v3.jsonl")
    parser.add_argument("--pi", action="store_true", help="also record Pi's reading of every golden")
    args = parser.parse_args()
    args.out.unlink(missing_ok=True)
    write_tau_golden(args.out)
    print(f"wrote {args.out}")
    if args.pi:
        write_pi_contexts()
    return 0


if __name__ == "__main__":
    sys.exit(main())
