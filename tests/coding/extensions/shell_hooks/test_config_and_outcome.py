"""Pure parts: reading the hooks setting, reading a hook's answer, mapping tool names and inputs."""

from __future__ import annotations

from pathlib import Path

from tau_coding.common.diagnostics import Diagnostic
from tau_coding.extensions.shell_hooks.config import CommandHook, HookConfig, parse_hooks
from tau_coding.extensions.shell_hooks.outcome import interpret
from tau_coding.extensions.shell_hooks.runner import HookRun
from tau_coding.extensions.shell_hooks.tool_names import from_claude_input, to_claude_input


def _parse(raw: dict[str, object]) -> tuple[HookConfig, list[Diagnostic]]:
    config, diagnostics = HookConfig(), []
    parse_hooks(raw, "s.json", config, diagnostics)
    return config, diagnostics


def test_bad_entries_are_diagnostics_and_good_ones_load() -> None:
    config, diagnostics = _parse(
        {
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Bash(", "hooks": [{"type": "command", "command": "x"}]},
                    {
                        "matcher": "Bash",
                        "hooks": [{"type": "prompt", "prompt": "?"}, {"command": "ok.sh", "timeout": 5}],
                    },
                ],
                "Notification": [],
                "Stop": "nope",
            }
        }
    )
    messages = [d.message for d in diagnostics]
    assert any("not a valid regex" in m for m in messages) and any("Notification" in m for m in messages)
    assert any("must be a list" in m for m in messages) and any(
        'only {"type": "command"' in m for m in messages
    )
    hooks = config.hooks_for("PreToolUse", "Bash", "bash")
    assert [(h.command, h.timeout) for h in hooks] == [("ok.sh", 5.0)]
    assert config.hooks_for("PreToolUse", "Read", "read") == []


def test_failure_mode_is_open_by_default_closed_globally_or_per_hook() -> None:
    open_, _ = _parse(
        {"hooks": {"Stop": [{"hooks": [{"command": "a"}, {"command": "b", "failure": "closed"}]}]}}
    )
    assert [h.fail_closed for h in open_.hooks_for("Stop")] == [False, True]
    closed, _ = _parse({"hookFailure": "closed", "hooks": {"Stop": [{"hooks": [{"command": "a"}]}]}})
    assert [h.fail_closed for h in closed.hooks_for("Stop")] == [True]
    disabled, _ = _parse({"disableAllHooks": True, "hooks": {"Stop": [{"hooks": [{"command": "a"}]}]}})
    assert not disabled


HOOK = CommandHook("h")


def test_exit_codes_and_json_fields_follow_claude_codes_contract() -> None:
    assert interpret("PreToolUse", [(HOOK, HookRun(2, "", "nope\n"))]).reason == "nope"
    legacy = interpret("PreToolUse", [(HOOK, HookRun(0, '{"decision": "block", "reason": "old style"}'))])
    assert legacy.block and legacy.reason == "old style"
    stop = interpret("PostToolUse", [(HOOK, HookRun(0, '{"continue": false, "stopReason": "enough"}'))])
    assert stop.stop and stop.block and stop.reason == "enough"
    noisy = interpret("PreToolUse", [(HOOK, HookRun(1, "", "boom"))])
    assert not noisy.block and noisy.warnings == ("PreToolUse hook 'h' exited with status 1: boom",)
    plain = interpret("PreToolUse", [(HOOK, HookRun(0, "just words"))])
    assert (
        not plain.block and plain.context == ""
    )  # plain stdout is context only for prompts and session start
    assert interpret("SessionStart", [(HOOK, HookRun(0, "just words"))]).context == "just words"
    both = interpret(
        "PreToolUse",
        [(HOOK, HookRun(0, "")), (CommandHook("g", fail_closed=True), HookRun(None, failure="timed out"))],
    )
    assert both.block and "fails closed" in both.reason


def test_tool_inputs_map_to_claude_shapes_and_back(tmp_path: Path) -> None:
    edit = {"path": "a.py", "edits": [{"oldText": "x", "newText": "y"}]}
    claude = to_claude_input("edit", edit, tmp_path)
    assert claude == {"file_path": str(tmp_path / "a.py"), "old_string": "x", "new_string": "y"}
    assert from_claude_input("edit", claude) == {
        "path": str(tmp_path / "a.py"),
        "edits": [{"oldText": "x", "newText": "y"}],
    }
    assert to_claude_input("bash", {"command": "ls", "timeout": 2}, tmp_path) == {
        "command": "ls",
        "timeout": 2000,
    }
    assert from_claude_input("bash", {"command": "ls", "timeout": 2000, "description": "d"}) == {
        "command": "ls",
        "timeout": 2,
    }
    assert to_claude_input("my_tool", {"path": "p"}, tmp_path) == {"path": "p"}
