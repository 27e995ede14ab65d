"""Every interception point, through a real CodingSession with a scripted provider."""

from __future__ import annotations

from pathlib import Path

from tau_agent.messages import CustomMessage, UserMessage
from tau_agent.session.entries import CustomEntry, CustomMessageEntry
from tau_agent.testing.fake_provider import call, reply
from tau_coding.session.events import InputHandledEvent
from tests.coding.extensions.helpers import fake, make_rig, write_extension


async def test_tool_call_gate_blocks_with_its_reason_and_the_tool_never_runs(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "gate",
        """
        from tau_coding.extensions import ToolCallDecision
        def activate(tau):
            @tau.on("tool_call")
            def gate(event):
                if event.tool_name == "bash" and "touch" in event.input["command"]:
                    return ToolCallDecision(block=True, reason="no touching")
    """,
    )
    provider = fake(reply(call("bash", {"command": "touch made.txt"})), "ok")
    rig = make_rig(tmp_path, provider, [ext])
    await rig.run("make a file")
    assert not (tmp_path / "made.txt").exists()
    assert rig.tool_results()[0].is_error and rig.result_text() == "no touching"


async def test_tool_call_rewrite_changes_the_arguments_the_tool_gets(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "rewrite",
        """
        from tau_coding.extensions import ToolCallDecision
        def activate(tau):
            @tau.on("tool_call")
            async def safer(event):
                return ToolCallDecision(input={"command": "echo rewritten"})
    """,
    )
    rig = make_rig(tmp_path, fake(reply(call("bash", {"command": "echo original"})), "ok"), [ext])
    await rig.run("go")
    assert rig.result_text().strip() == "rewritten"


async def test_a_crashing_gate_blocks_the_call_and_is_reported(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "crashy",
        """
        def activate(tau):
            tau.on("tool_call", lambda event: 1 / 0)
    """,
    )
    rig = make_rig(tmp_path, fake(reply(call("bash", {"command": "touch x"})), "ok"), [ext])
    await rig.run("go")
    assert not (tmp_path / "x").exists()
    assert "ZeroDivisionError" in rig.result_text() and rig.tool_results()[0].is_error
    assert any("crashy" in w and "tool_call handler failed" in w for w in rig.warnings)
    assert rig.session.messages[-1].role == "assistant"  # the run went on


async def test_a_hanging_gate_times_out_blocks_and_later_calls_fail_fast(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "hang",
        """
        import time
        def activate(tau):
            @tau.on("tool_call")
            def gate(event):
                time.sleep(30)
    """,
    )
    provider = fake(
        reply(call("bash", {"command": "touch a"})), reply(call("bash", {"command": "touch b"})), "done"
    )
    rig = make_rig(tmp_path, provider, [ext], timeout=0.3)
    import time

    started = time.monotonic()
    await rig.run("go")
    assert time.monotonic() - started < 3
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
    assert "timed out" in rig.result_text(0) and "still running" in rig.result_text(1)


async def test_tool_result_handler_rewrites_what_the_model_sees(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "redact",
        """
        from tau_agent.content import TextContent
        from tau_coding.extensions import ToolResultPatch
        def activate(tau):
            @tau.on("tool_result")
            def redact(event):
                text = "".join(b.text for b in event.content)
                return ToolResultPatch(content=[TextContent(text.replace("secret", "[redacted]"))])
    """,
    )
    provider = fake(reply(call("bash", {"command": "echo my secret"})), "ok")
    rig = make_rig(tmp_path, provider, [ext])
    await rig.run("go")
    assert "[redacted]" in rig.result_text() and "secret" not in rig.result_text()
    sent = provider.contexts[1].messages[-1]
    assert "[redacted]" in str(sent.content)


async def test_context_handler_prunes_what_is_sent_but_not_the_record(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "prune",
        """
        def activate(tau):
            @tau.on("context")
            def only_last(event):
                return event.messages[-1:]
    """,
    )
    provider = fake("one", "two")
    rig = make_rig(tmp_path, provider, [ext])
    await rig.run("first")
    await rig.run("second")
    assert [m.content for m in provider.contexts[1].messages] == ["second"]
    assert len(rig.session.messages) == 4


async def test_input_transform_and_handled_input(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "inp",
        """
        from tau_coding.extensions import InputHandled, InputTransform
        def activate(tau):
            @tau.on("input")
            def shape(event):
                if event.text == "ping":
                    return InputHandled("pong")
                return InputTransform(event.text.upper())
    """,
    )
    provider = fake("ok")
    rig = make_rig(tmp_path, provider, [ext])
    events = await rig.run("ping")
    assert provider.calls == 0
    assert (
        isinstance(events[0], InputHandledEvent)
        and events[0].text == "pong"
        and events[-1].type == "agent_settled"
    )
    await rig.run("shout this")
    assert provider.contexts[0].messages[-1] == UserMessage(
        "SHOUT THIS", timestamp=provider.contexts[0].messages[-1].timestamp
    )


async def test_slash_command_runs_instead_of_the_model(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "cmd",
        """
        def activate(tau):
            tau.register_command("hello", lambda args: f"hello {args}!", description="greet")
    """,
    )
    provider = fake("ok")
    rig = make_rig(tmp_path, provider, [ext])
    events = await rig.run("/hello world")
    assert (
        provider.calls == 0 and isinstance(events[0], InputHandledEvent) and events[0].text == "hello world!"
    )
    await rig.run("/unknown stays a prompt")
    assert provider.calls == 1


async def test_events_reach_subscribers_in_order(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "listen",
        """
        SEEN = []
        def activate(tau):
            tau.on("*", lambda event: SEEN.append(event.type))
            tau.on("agent_settled", lambda event: SEEN.append("settled!"))
    """,
    )
    rig = make_rig(tmp_path, fake("hi"), [ext])
    await rig.run("hello")
    module = rig.host.extensions["listen"].module
    assert module is not None
    seen = module.SEEN
    assert seen[0] == "agent_start" and seen[-2:] == ["settled!", "agent_settled"]  # by type first, then "*"
    assert "message_update" in seen and seen.index("agent_end") < seen.index("agent_settled")


async def test_actions_follow_up_custom_message_entry_and_name(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "act",
        """
        def activate(tau):
            state = {"sent": False}
            @tau.on("turn_end")
            def once_more(event):
                if not state["sent"]:
                    state["sent"] = True
                    tau.send_user_message("and once more", deliver_as="follow_up")
            tau.register_command("note", lambda args: (
                tau.send_message("note", args, display=False),
                tau.append_entry("mine", {"n": 1}),
                tau.set_session_name(args),
            ) and "noted")
    """,
    )
    provider = fake("first", "second", "third")
    rig = make_rig(tmp_path, provider, [ext])
    await rig.run("/note remember this")
    assert rig.session.log.name == "remember this"
    entries = rig.session.log.entries
    assert any(isinstance(e, CustomEntry) and e.custom_type == "mine" for e in entries)
    assert any(isinstance(e, CustomMessageEntry) and e.content == "remember this" for e in entries)
    await rig.run("go")
    assert provider.calls == 2
    assert isinstance(
        provider.contexts[0].messages[0], UserMessage
    )  # custom messages reach the model as user text
    assert any(isinstance(m, CustomMessage) for m in rig.session.messages)
    assert provider.contexts[1].messages[-1].content == "and once more"


async def test_stop_decision_keeps_the_run_going_once(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "stopper",
        """
        from tau_coding.extensions import StopDecision
        def activate(tau):
            @tau.on("stop")
            def check(event):
                if not event.stop_hook_active:
                    return StopDecision("Did you run the tests?")
    """,
    )
    provider = fake("done", "yes, they pass")
    rig = make_rig(tmp_path, provider, [ext])
    events = await rig.run("work")
    assert provider.calls == 2 and provider.contexts[1].messages[-1].content == "Did you run the tests?"
    assert [e.type for e in events].count("agent_settled") == 1 and events[-1].type == "agent_settled"


async def test_lifecycle_start_once_and_shutdown_on_close(tmp_path: Path) -> None:
    marker = tmp_path / "log.txt"
    ext = write_extension(
        tmp_path / "ext",
        "life",
        f"""
        def activate(tau):
            def write(text):
                with open({str(marker)!r}, "a") as f:
                    f.write(text + "\\n")
            tau.on("session_start", lambda e: write("start " + e.source))
            tau.on("session_shutdown", lambda e: write("end"))
    """,
    )
    rig = make_rig(tmp_path, fake("a", "b"), [ext])
    await rig.run("one")
    await rig.run("two")
    rig.session.close()
    assert marker.read_text().splitlines() == ["start startup", "end"]


async def test_replacing_a_builtin_tool_is_announced_and_undone_on_unload(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "mybash",
        """
        from tau_agent.tools import AgentTool, AgentToolResult
        async def run(call_id, args, signal, on_update):
            return AgentToolResult.text("fake bash ran " + args["command"])
        def activate(tau):
            tau.register_tool(AgentTool("bash", "my bash", {"type": "object", "properties": {"command": {"type": "string"}}}, run))
    """,
    )
    rig = make_rig(tmp_path, fake(reply(call("bash", {"command": "ls"})), "ok"), [ext])
    assert any("replaces the built-in tool 'bash'" in w for w in rig.warnings)
    await rig.run("go")
    assert rig.result_text() == "fake bash ran ls"
    rig.host.unload_all()
    bash = next(t for t in rig.session.harness.tools if t.name == "bash")
    assert bash.description != "my bash"


async def test_a_registered_shortcut_is_listed_and_answers(tmp_path: Path) -> None:
    path = write_extension(
        tmp_path / "ext",
        "keys",
        """
        def activate(tau):
            tau.register_shortcut("ctrl+k", lambda: "pressed", description="say pressed")
        """,
    )
    rig = make_rig(tmp_path, fake("ok"), [path])
    hooks = rig.session.hooks
    assert hooks is not None
    assert list(hooks.shortcut_list()) == [("ctrl+k", "say pressed")]
    assert await hooks.on_shortcut("ctrl+k") == "pressed"
    assert await hooks.on_shortcut("ctrl+q") is None


async def test_a_registered_renderer_draws_its_custom_messages(tmp_path: Path) -> None:
    path = write_extension(
        tmp_path / "ext",
        "draw",
        """
        def activate(tau):
            tau.register_message_renderer("todo", lambda message: ["TODO", "- " + message.content])
        """,
    )
    rig = make_rig(tmp_path, fake("ok"), [path])
    hooks = rig.session.hooks
    assert hooks is not None
    assert hooks.render_message(CustomMessage("todo", "write tests")) == "TODO\n- write tests"
    assert hooks.render_message(CustomMessage("other", "x")) is None


async def test_input_handlers_are_told_which_frontend_typed_the_prompt(tmp_path: Path) -> None:
    seen = tmp_path / "sources.txt"
    path = write_extension(
        tmp_path / "ext",
        "where",
        f"""
        def note(event):
            with open({str(seen)!r}, "a") as handle:
                handle.write(event.source + "\\n")

        def activate(tau):
            tau.on("input", note)
        """,
    )
    rig = make_rig(tmp_path, fake("one", "two"), [path])
    await rig.run("first")
    rig.session.input_source = "rpc"
    await rig.run("second")
    assert seen.read_text().splitlines() == ["print", "rpc"]
