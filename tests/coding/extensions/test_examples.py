"""The shipped examples, loaded from examples/extensions/ and exercised in a real session."""

from __future__ import annotations

from pathlib import Path

from tau_agent.session.entries import CustomEntry
from tau_agent.testing.fake_provider import call, reply
from tests.coding.extensions.helpers import fake, make_rig

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "extensions"


async def test_permission_gate_refuses_dangerous_commands_without_a_person(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    provider = fake(
        reply(
            call("bash", {"command": f"rm -rf {victim}"}, id="c1"),
            call("bash", {"command": "echo safe"}, id="c2"),
        ),
        "ok",
    )
    rig = make_rig(tmp_path, provider, [EXAMPLES / "permission_gate.py"])
    await rig.run("clean up")
    assert victim.exists()
    assert rig.tool_results()[0].is_error and "Blocked by permission gate" in rig.result_text(0)
    assert rig.result_text(1).strip() == "safe"
    assert any("confirm 'Dangerous command'" in w and "answered False" in w for w in rig.warnings)


async def test_permission_gate_lets_a_confirmed_command_run(tmp_path: Path) -> None:
    class Yes:
        interactive = True

        async def confirm(self, title: str, message: str = "", *, default: bool = False) -> bool:
            return True

    rig = make_rig(
        tmp_path,
        fake(reply(call("bash", {"command": "sudo -n true 2>/dev/null; echo asked"})), "ok"),
        [EXAMPLES / "permission_gate.py"],
    )
    rig.host.ui = Yes()  # type: ignore[assignment]  # a frontend whose user says yes
    await rig.run("go")
    assert rig.result_text().strip().endswith("asked")


async def test_custom_tool_counts_lines(tmp_path: Path) -> None:
    (tmp_path / "three.txt").write_text("a\nb\nc\n")
    rig = make_rig(
        tmp_path, fake(reply(call("count_lines", {"path": "three.txt"})), "ok"), [EXAMPLES / "custom_tool.py"]
    )
    assert "count_lines" in [t.name for t in rig.session.harness.tools]
    assert rig.session.harness.system_prompt.endswith("bash, count_lines")
    await rig.run("count")
    assert rig.result_text() == "three.txt: 3 lines"


async def test_slash_command_keeps_a_todo_list_in_the_session(tmp_path: Path) -> None:
    provider = fake("ok")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "slash_command.py"])
    await rig.run("/todo add write tests")
    events = await rig.run("/todo list")
    assert getattr(events[0], "text", None) == "1. write tests" and provider.calls == 0
    command = rig.host.registry.commands["todo"]
    assert command.complete is not None and list(command.complete("c")) == ["clear"]
    entries = [e for e in rig.session.log.entries if isinstance(e, CustomEntry)]
    assert entries[-1].custom_type == "todo" and entries[-1].data == {"items": ["write tests"]}
    assert rig.session.hooks is not None
    listed = dict(rig.session.hooks.command_list())  # what the TUI's / menu offers
    assert listed["todo"] == "keep a to-do list in this session" and "reload" in listed


async def test_status_widget_follows_turns_and_tool_calls(tmp_path: Path) -> None:
    provider = fake(reply(call("bash", {"command": "true"}), call("read", {"path": "nope"})), "ok")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "status_widget.py"])
    await rig.run("go")
    assert rig.ui.status["activity"] == "turns 2 · tool calls 2"
    assert rig.ui.widgets["tools"] == ["bash: 1", "read: 1"]


async def test_custom_provider_registers_a_model_and_a_factory(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("unused"), [EXAMPLES / "custom_provider.py"])
    registration = rig.host.registry.providers["echo"]
    assert [m.id for m in registration.models] == ["echo-1"]
    rig.session.set_model(registration.models[0])  # the session's factory is the test's; swap in the echo one
    rig.session.harness.provider = registration.factory(registration.models[0])
    await rig.run("say this")
    assert getattr(rig.session.messages[-1], "text", "") == "echo: say this"


def test_every_example_is_exercised_by_a_test_and_there_are_at_least_25() -> None:
    examples = sorted(p.stem for p in EXAMPLES.glob("*.py"))
    tests = "".join(p.read_text() for p in Path(__file__).parent.glob("test_examples*.py"))
    assert len(examples) >= 25
    assert [name for name in examples if f'EXAMPLES / "{name}.py"' not in tests] == []


async def test_all_examples_load_together_without_a_clash(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("ok"), sorted(EXAMPLES.glob("*.py")))
    loaded = [name for name, e in rig.host.extensions.items() if e.origin != "builtin"]
    assert len(loaded) == len(list(EXAMPLES.glob("*.py"))) and rig.host.diagnostics == []
