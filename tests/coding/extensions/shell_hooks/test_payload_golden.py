"""Hook stdin payloads pinned by golden files (tests/coding/extensions/shell_hooks/golden/*.json).

Regenerate after an intended change with
``TAU_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/coding/extensions/shell_hooks/test_payload_golden.py``
and review ``git diff tests/coding/extensions/shell_hooks/golden``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tau_agent.content import TextContent
from tau_coding.extensions.shell_hooks import payload

GOLDEN = Path(__file__).parent / "golden"
CWD = Path("/work/project")
SESSION = ("0193a5b2-7c1e-7000-8000-000000000001", Path("/home/u/.tau/sessions/s.jsonl"))


def _cases() -> dict[str, dict[str, Any]]:
    def base(event: str) -> dict[str, Any]:
        return payload.common(event, SESSION[0], SESSION[1], CWD)

    bash = {"command": "npm test", "timeout": 30}
    edit = {"path": "src/a.py", "edits": [{"oldText": "a", "newText": "b"}]}
    return {
        "pre_tool_use_bash": base("PreToolUse") | payload.tool_fields("bash", "toolu_1", bash, CWD),
        "pre_tool_use_edit": base("PreToolUse") | payload.tool_fields("edit", "toolu_2", edit, CWD),
        "post_tool_use_write": base("PostToolUse")
        | payload.tool_fields("write", "toolu_3", {"path": "b.txt", "content": "hi"}, CWD)
        | {
            "tool_response": payload.tool_response(
                "write",
                {"path": "b.txt", "content": "hi"},
                [TextContent("Wrote 2 bytes")],
                {"created": True},
                CWD,
            )
        },
        "post_tool_use_read": base("PostToolUse")
        | payload.tool_fields("read", "toolu_4", {"path": "a.py", "offset": 2}, CWD)
        | {
            "tool_response": payload.tool_response(
                "read",
                {"path": "a.py", "offset": 2},
                [TextContent("two\nthree")],
                {"startLine": 2, "endLine": 3, "totalLines": 3},
                CWD,
            )
        },
        "post_tool_use_edit": base("PostToolUse")
        | payload.tool_fields("edit", "toolu_5", edit, CWD)
        | {
            "tool_response": payload.tool_response(
                "edit", edit, [TextContent("Successfully replaced text in src/a.py.")], {}, CWD
            )
        },
        "post_tool_use_bash": base("PostToolUse")
        | payload.tool_fields("bash", "toolu_6", bash, CWD)
        | {
            "tool_response": payload.tool_response(
                "bash", bash, [TextContent("3 passed")], {"exitCode": 0, "cancelled": False}, CWD
            )
        },
        "user_prompt_submit": base("UserPromptSubmit") | {"prompt": "fix the bug"},
        "stop": base("Stop") | {"stop_hook_active": False},
    }


@pytest.mark.parametrize("name", sorted(_cases()))
def test_payload_matches_golden(name: str) -> None:
    produced = json.dumps(_cases()[name], indent=2, sort_keys=True) + "\n"
    path = GOLDEN / f"{name}.json"
    if os.environ.get("TAU_REGENERATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(produced)
    assert path.read_text() == produced
