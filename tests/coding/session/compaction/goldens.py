"""The formats compaction defines, built from fixed inputs, compared with files in ``golden/``.

Regenerate after an intended change (then review the diff):

    .venv/bin/python -m tests.coding.session.compaction.goldens
"""

from __future__ import annotations

import json
from pathlib import Path

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    ToolResultMessage,
    UserMessage,
)
from tau_coding.session.compaction import prompts
from tau_coding.session.compaction.file_ops import collect_file_ops, file_lists_text
from tau_coding.session.compaction.result import CompactionResult
from tau_coding.session.compaction.serialize import serialize_conversation
from tau_coding.session.events import CompactionEndEvent, CompactionStartEvent, session_event_to_dict

GOLDEN = Path(__file__).parent / "golden"


def conversation() -> list[AgentMessage]:
    return [
        UserMessage([TextContent("Fix the port in config.py"), ImageContent("AAAA", "image/png")]),
        AssistantMessage(
            [
                ThinkingContent("Read it first."),
                TextContent("Let me look."),
                ToolCall("c1", "read", {"path": "config.py"}),
            ]
        ),
        ToolResultMessage("c1", "read", [TextContent("PORT = 80\n" + "#" * 2_100)]),
        AssistantMessage(
            [ToolCall("c2", "edit", {"path": "config.py", "edits": [{"oldText": "80", "newText": "8080"}]})]
        ),
        ToolResultMessage("c2", "edit", [TextContent("no match")], is_error=True),
        BashExecutionMessage("pytest -q", "1 failed", 1),
        AssistantMessage([TextContent("Partial")], stop_reason="error", error_message="HTTP 500: overloaded"),
    ]


def summary_request_text() -> str:
    messages = conversation()
    ops = collect_file_ops(messages, {"readFiles": ["README.md"], "modifiedFiles": []})
    request = prompts.summary_request(
        serialize_conversation(messages),
        prompts.UPDATE,
        previous_summary="## Goal\nChange the port.",
        custom_instructions="the port",
    )
    return request + "\n\n=== file lists ===\n" + file_lists_text(ops) + "\n"


def events_jsonl() -> str:
    result = CompactionResult("## Goal\nx", "a1b2c3d4", 183_000, {"readFiles": ["a.py"], "modifiedFiles": []})
    events = [
        CompactionStartEvent("overflow"),
        CompactionEndEvent("overflow", result, will_retry=True),
        CompactionStartEvent("threshold"),
        CompactionEndEvent("threshold", None, error_message="the summarising model failed: HTTP 500"),
        CompactionStartEvent("manual"),
        CompactionEndEvent("manual", None, aborted=True),
    ]
    return "".join(json.dumps(session_event_to_dict(e), separators=(",", ":")) + "\n" for e in events)


CASES = {"summary_request.txt": summary_request_text, "events.jsonl": events_jsonl}


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, build in CASES.items():
        (GOLDEN / name).write_text(build(), encoding="utf-8")
        print(f"wrote {GOLDEN / name}")


if __name__ == "__main__":
    main()
