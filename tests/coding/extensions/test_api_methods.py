"""tau.events between extensions, active tools, exec, commands, thinking level: on a live session."""

from __future__ import annotations

import sys
from pathlib import Path

from tau_coding.extensions.api import ExtensionAPI
from tests.coding.extensions.helpers import fake, make_rig, write_extension


async def test_the_event_bus_carries_data_between_extensions_until_one_is_unloaded(tmp_path: Path) -> None:
    listener = write_extension(
        tmp_path / "ext",
        "listener",
        """
        heard = []
        def activate(tau):
            tau.events.on("build", heard.append)
            tau.events.on("build", lambda data: 1 / 0)
            tau.register_command("heard", lambda args: ",".join(heard))
        """,
    )
    talker = write_extension(
        tmp_path / "ext",
        "talker",
        """
        def activate(tau):
            tau.register_command("shout", lambda args: str(tau.events.emit("build", args)))
        """,
    )
    rig = make_rig(tmp_path, fake(), [listener, talker])
    events = await rig.run("/shout green")
    assert [getattr(e, "text", None) for e in events if e.type == "input_handled"] == ["2"]
    events = await rig.run("/heard")
    assert [getattr(e, "text", None) for e in events if e.type == "input_handled"] == ["green"]
    assert any("events 'build' handler failed" in w for w in rig.warnings)  # the other still heard
    rig.host._unload("listener")
    assert "build" not in rig.host.registry.channels
    talker_api = ExtensionAPI(rig.host, "talker")
    assert talker_api.events.emit("build", "again") == 0


async def test_set_active_tools_limits_what_the_model_is_offered_and_none_restores(tmp_path: Path) -> None:
    provider = fake("a", "b")
    rig = make_rig(tmp_path, provider)
    tau = ExtensionAPI(rig.host, "tau")
    assert tau.get_active_tools() == ["read", "write", "edit", "bash"]
    tau.set_active_tools(["read", "bash"])
    assert tau.get_active_tools() == ["read", "bash"]
    await rig.run("go")
    assert [t.name for t in provider.contexts[0].tools] == ["read", "bash"]
    assert {t.name for t in tau.get_all_tools()} == {"read", "write", "edit", "bash"}
    tau.set_active_tools(None)
    assert tau.get_active_tools() == ["read", "write", "edit", "bash"]


async def test_exec_runs_a_program_in_the_session_directory_and_reports_failures(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake())
    tau = ExtensionAPI(rig.host, "tau")
    done = await tau.exec(sys.executable, ["-c", "import os,sys; print(os.getcwd()); sys.exit(3)"])
    assert done.stdout.strip() == str(tmp_path) and done.code == 3 and not done.killed
    slow = await tau.exec(sys.executable, ["-c", "import time; time.sleep(10)"], timeout=0.2)
    assert slow.killed
    missing = await tau.exec(str(tmp_path / "no-such-program"))
    assert missing.code == 127 and "no-such-program" in missing.stderr


async def test_commands_and_thinking_level_are_read_and_set_through_the_api(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "cmds",
        """
        def activate(tau):
            tau.register_command("hello", lambda args: "hi", description="greets")
        """,
    )
    rig = make_rig(tmp_path, fake(), [ext])
    tau = ExtensionAPI(rig.host, "cmds")
    assert ("hello", "greets") in tau.get_commands()
    tau.set_thinking_level("high")
    assert tau.thinking_level == "high" == rig.session.thinking_level
    assert tau.model is rig.session.model


async def test_a_next_turn_message_waits_for_the_users_next_prompt(tmp_path: Path) -> None:
    from tau_agent.messages import CustomMessage, UserMessage

    provider = fake("a")
    rig = make_rig(tmp_path, provider)
    tau = ExtensionAPI(rig.host, "tau")
    tau.send_message("note", "the build is red", deliver_as="next_turn")
    assert not any(isinstance(m, CustomMessage) for m in rig.session.messages) and provider.calls == 0
    await rig.run("what now?")
    sent = provider.contexts[0].messages  # a custom message reaches the model as user text
    assert "the build is red" in str(sent[-2]) and "what now?" in str(sent[-1])
    kept = [m for m in rig.session.messages if isinstance(m, CustomMessage | UserMessage)]
    assert [type(m).__name__ for m in kept] == ["CustomMessage", "UserMessage"]
    assert rig.host.next_turn == []


async def test_settings_and_the_model_registry_are_readable(tmp_path: Path) -> None:
    from tau_ai.model import Model

    rig = make_rig(tmp_path, fake())
    other = Model("other", "fake", "fake", "http://127.0.0.1")
    rig.host.read_setting = {"router.big": "fake/other"}.get
    rig.host.list_models = lambda: [other]
    tau = ExtensionAPI(rig.host, "tau")
    assert tau.setting("router.big") == "fake/other" and tau.setting("nope", 3) == 3
    assert tau.available_models() == [other] and tau.find_model("fake", "other") is other
    assert tau.find_model("fake", "missing") is None


async def test_has_ui_system_prompt_and_pending_messages_read_the_live_session(tmp_path: Path) -> None:
    """Pi's ``hasUI``, ``getSystemPrompt()`` and ``hasPendingMessages()``."""
    path = write_extension(
        tmp_path / "ext",
        "reader",
        """
        seen = []
        def activate(tau):
            from tau_coding.extensions import AgentStartPatch

            def first(event):
                return AgentStartPatch(system_prompt=event.system_prompt + " And be kind.")

            tau.on("before_agent_start", first)
            tau.on("before_agent_start", lambda event: seen.append(("prompt", tau.system_prompt)))

            def look(args):
                tau.send_user_message("later", deliver_as="follow_up")
                return f"{tau.has_ui} {tau.has_pending_messages()}"

            tau.register_command("look", look)
        """,
    )
    rig = make_rig(tmp_path, fake("ok", "ok again"), [path])
    events = await rig.run("/look")
    assert [getattr(e, "text", None) for e in events if e.type == "input_handled"] == ["False True"]
    await rig.run("hello")
    module = rig.host.extensions["reader"].module
    assert module is not None
    assert module.seen[-1] == ("prompt", "Be brief. Tools: read, write, edit, bash And be kind.")
