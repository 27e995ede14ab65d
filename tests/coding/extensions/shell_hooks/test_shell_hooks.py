"""Hook scripts written for Claude Code's documented format, run unchanged in a real session."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tau_agent.messages import CustomMessage
from tau_agent.testing.fake_provider import call, reply
from tau_coding.session.events import InputHandledEvent
from tests.coding.extensions.helpers import fake
from tests.coding.extensions.shell_hooks.helpers import hook, hooked_rig, script, settings

BLOCK_RM = """
    #!/usr/bin/env bash
    # Claude Code's classic: read the JSON, block rm -rf with exit 2 and a reason on stderr.
    command=$(jq -r '.tool_input.command')
    if [[ "$command" == *"rm -rf"* ]]; then
      echo "Blocked: rm -rf is not allowed here" >&2
      exit 2
    fi
    exit 0
"""


async def test_exit_2_blocks_the_tool_and_feeds_stderr_to_the_model(tmp_path: Path) -> None:
    gate = script(tmp_path / "hooks", "block_rm.sh", BLOCK_RM)
    keep = tmp_path / "keep"
    keep.mkdir()
    provider = fake(reply(call("bash", {"command": f"rm -rf {keep}"})), "ok")
    rig = hooked_rig(tmp_path, provider, settings(hook("PreToolUse", gate, matcher="Bash")))
    await rig.run("clean")
    assert keep.exists()
    assert rig.result_text() == "Blocked: rm -rf is not allowed here"
    assert "Blocked: rm -rf" in json.dumps(str(provider.contexts[1].messages[-1].content))


async def test_json_deny_and_updated_input_per_the_documented_fields(tmp_path: Path) -> None:
    policy = script(
        tmp_path / "hooks",
        "policy.py",
        """
        #!/usr/bin/env python3
        import json, sys
        data = json.load(sys.stdin)
        command = data["tool_input"].get("command", "")
        if "curl" in command:
            out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                          "permissionDecisionReason": "no network from the agent"}}
        else:
            out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                          "updatedInput": {"command": command.replace("hello", "HELLO")}}}
        print(json.dumps(out))
    """,
    )
    provider = fake(
        reply(
            call("bash", {"command": "curl http://example.invalid"}, id="a"),
            call("bash", {"command": "echo hello"}, id="b"),
        ),
        "ok",
    )
    rig = hooked_rig(tmp_path, provider, settings(hook("PreToolUse", policy, matcher="Bash")))
    await rig.run("go")
    assert rig.tool_results()[0].is_error and rig.result_text(0) == "no network from the agent"
    assert rig.result_text(1).strip() == "HELLO"


async def test_ask_goes_to_the_ui_and_print_mode_refuses(tmp_path: Path) -> None:
    asker = script(
        tmp_path / "hooks",
        "ask.sh",
        """
        #!/usr/bin/env bash
        echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "writes outside src"}}'
    """,
    )
    provider = fake(reply(call("write", {"path": "x.txt", "content": "x"})), "ok")
    rig = hooked_rig(tmp_path, provider, settings(hook("PreToolUse", asker, matcher="Write|Edit")))
    await rig.run("write")
    assert not (tmp_path / "x.txt").exists()
    assert "did not allow" in rig.result_text() and "writes outside src" in rig.result_text()


async def test_matchers_are_regexes_over_claude_and_tau_names(tmp_path: Path) -> None:
    log = tmp_path / "seen.log"
    record = f"jq -r .tool_name >> {log}"
    provider = fake(
        reply(
            call("bash", {"command": "true"}, id="1"),
            call("write", {"path": "f.txt", "content": "y"}, id="2"),
            call("read", {"path": "f.txt"}, id="3"),
        ),
        "ok",
    )
    rules = settings(
        hook("PreToolUse", record, matcher="Write|Edit"), hook("PreToolUse", record, matcher="rea.*")
    )
    rig = hooked_rig(tmp_path, provider, rules)
    await rig.run("go")
    assert sorted(log.read_text().split()) == ["Read", "Write"]


async def test_post_tool_use_sees_the_absolute_file_path_and_adds_context(tmp_path: Path) -> None:
    formatter = script(
        tmp_path / "hooks",
        "format.py",
        """
        #!/usr/bin/env python3
        import json, pathlib, sys
        data = json.load(sys.stdin)
        path = pathlib.Path(data["tool_input"]["file_path"])
        path.write_text(path.read_text().upper())
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                          "additionalContext": "formatted " + path.name + " via " + data["tool_response"]["filePath"]}}))
    """,
    )
    provider = fake(reply(call("write", {"path": "notes.txt", "content": "quiet words"})), "ok")
    rig = hooked_rig(tmp_path, provider, settings(hook("PostToolUse", formatter, matcher="Write")))
    await rig.run("write")
    assert (tmp_path / "notes.txt").read_text() == "QUIET WORDS"
    assert f"formatted notes.txt via {tmp_path / 'notes.txt'}" in rig.result_text()


async def test_post_tool_use_failure_gets_the_error(tmp_path: Path) -> None:
    log = tmp_path / "failures.jsonl"
    provider = fake(reply(call("read", {"path": "missing.txt"})), "ok")
    rig = hooked_rig(
        tmp_path, provider, settings(hook("PostToolUseFailure", f"cat >> {log}", matcher="Read"))
    )
    await rig.run("read")
    payload = json.loads(log.read_text())
    assert payload["hook_event_name"] == "PostToolUseFailure" and payload["tool_name"] == "Read"
    assert payload["tool_input"]["file_path"] == str(tmp_path / "missing.txt") and payload["error"]


async def test_user_prompt_submit_blocks_or_adds_context(tmp_path: Path) -> None:
    gate = script(
        tmp_path / "hooks",
        "prompt.py",
        """
        #!/usr/bin/env python3
        import json, sys
        data = json.load(sys.stdin)
        if "password" in data["prompt"]:
            print(json.dumps({"decision": "block", "reason": "prompts must not contain secrets"}))
        else:
            print("Current sprint: hooks")  # plain stdout becomes context
    """,
    )
    provider = fake("ok")
    rig = hooked_rig(tmp_path, provider, settings(hook("UserPromptSubmit", gate)))
    events = await rig.run("my password is hunter2")
    assert provider.calls == 0 and isinstance(events[0], InputHandledEvent)
    assert "prompts must not contain secrets" in (events[0].text or "")
    await rig.run("what are we doing?")
    sent = provider.contexts[0].messages
    assert any("Current sprint: hooks" in str(m.content) for m in sent)
    assert any(isinstance(m, CustomMessage) and m.custom_type == "hook_context" for m in rig.session.messages)


async def test_stop_hook_continues_once_using_stop_hook_active(tmp_path: Path) -> None:
    stopper = script(
        tmp_path / "hooks",
        "stop.sh",
        """
        #!/usr/bin/env bash
        if [ "$(jq -r .stop_hook_active)" = "true" ]; then exit 0; fi
        echo "Run the tests before you stop." >&2
        exit 2
    """,
    )
    provider = fake("done", "tests pass")
    rig = hooked_rig(tmp_path, provider, settings(hook("Stop", stopper)))
    await rig.run("work")
    assert (
        provider.calls == 2 and provider.contexts[1].messages[-1].content == "Run the tests before you stop."
    )


async def test_session_start_context_session_end_and_pre_compact(tmp_path: Path) -> None:
    log = tmp_path / "events.log"
    rules = settings(
        hook("SessionStart", "echo 'Remember: Python 3.11'"),
        hook("SessionEnd", f"jq -r '.hook_event_name + \" \" + .reason' >> {log}"),
        hook("PreCompact", f"jq -r '.hook_event_name + \" \" + .trigger' >> {log}"),
    )
    provider = fake("ok", "## Goal\nSay hi.")
    rig = hooked_rig(tmp_path, provider, rules)
    await rig.run("hi")
    assert any("Remember: Python 3.11" in str(m.content) for m in provider.contexts[0].messages)
    await rig.session.compact("keep the API notes")  # two short messages: all kept, as in Pi
    rig.session.close()
    assert log.read_text().splitlines() == ["PreCompact manual", "SessionEnd other"]


async def test_a_hanging_hook_fails_open_by_default_and_closed_when_asked(tmp_path: Path) -> None:
    slow = "sleep 30"
    opened = fake(reply(call("bash", {"command": "echo ran"})), "ok")
    rig = hooked_rig(tmp_path / "a", opened, settings(hook("PreToolUse", slow, timeout=0.5)))
    started = time.monotonic()
    await rig.run("go")
    assert time.monotonic() - started < 5
    assert rig.result_text().strip() == "ran" and any("timed out after 0.5s" in w for w in rig.warnings)

    closed = fake(reply(call("bash", {"command": "echo ran"})), "ok")
    rig = hooked_rig(
        tmp_path / "b", closed, settings(hook("PreToolUse", slow, timeout=0.5), hookFailure="closed")
    )
    await rig.run("go")
    assert rig.tool_results()[0].is_error and "fails closed" in rig.result_text()


async def test_a_crashing_hook_script_fails_open_with_a_warning(tmp_path: Path) -> None:
    provider = fake(reply(call("bash", {"command": "echo ran"})), "ok")
    rig = hooked_rig(tmp_path, provider, settings(hook("PreToolUse", "echo oops >&2; exit 1")))
    await rig.run("go")
    assert rig.result_text().strip() == "ran"
    assert any("exited with status 1: oops" in w for w in rig.warnings)
