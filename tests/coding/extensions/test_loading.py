"""Loading: files, packages, entry points; broken extensions become diagnostics; reload."""

from __future__ import annotations

import time
from pathlib import Path

from tau_agent.testing.fake_provider import reply
from tau_coding.extensions.loader import from_entry_points, in_directory
from tests.coding.extensions.helpers import fake, make_rig, write_extension

GOOD = """
    def activate(tau):
        tau.register_command("good", lambda args: "good")
"""


async def test_import_error_is_a_diagnostic_and_the_others_still_load(tmp_path: Path) -> None:
    broken = write_extension(tmp_path / "ext", "broken", "import no_such_module_anywhere\n")
    good = write_extension(tmp_path / "ext", "good", GOOD)
    rig = make_rig(tmp_path, fake("ok"), [broken, good])
    assert "broken" not in rig.host.extensions and "good" in rig.host.registry.commands
    assert any("broken" in d.source and "ModuleNotFoundError" in d.message for d in rig.host.diagnostics)
    await rig.run("still works")
    assert rig.session.messages[-1].role == "assistant"


async def test_activate_that_raises_has_its_registrations_undone(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "half",
        """
        from tau_agent.tools import AgentTool, AgentToolResult
        async def run(call_id, args, signal, on_update):
            return AgentToolResult.text("x")
        def activate(tau):
            tau.register_tool(AgentTool("half_tool", "d", {"type": "object"}, run))
            tau.register_command("half", lambda args: "x")
            tau.on("tool_call", lambda event: None)
            raise RuntimeError("second thoughts")
    """,
    )
    rig = make_rig(tmp_path, fake("ok"), [ext])
    registry = rig.host.registry
    assert all(owner == "tau" for owner, _ in registry.tools.values())  # only the built-in ones
    assert "half" not in registry.commands and "tool_call" not in registry.handlers
    assert all(t.name != "half_tool" for t in rig.session.harness.tools)
    assert any("second thoughts" in w for w in rig.warnings)


async def test_a_hanging_import_or_activate_does_not_hang_startup(tmp_path: Path) -> None:
    hang_import = write_extension(tmp_path / "ext", "slowimport", "import time\ntime.sleep(30)\n")
    hang_activate = write_extension(
        tmp_path / "ext",
        "slowactivate",
        """
        import time
        def activate(tau):
            time.sleep(30)
    """,
    )
    started = time.monotonic()
    rig = make_rig(tmp_path, fake("ok"), [hang_import, hang_activate], timeout=0.3)
    assert time.monotonic() - started < 2
    assert not {"slowimport", "slowactivate"} & set(rig.host.extensions)
    assert sum("timed out" in w for w in rig.warnings) == 2


async def test_a_package_directory_loads_with_relative_imports(tmp_path: Path) -> None:
    package = tmp_path / "ext" / "pkgext"
    package.mkdir(parents=True)
    (package / "helper.py").write_text("ANSWER = 'from helper'\n")
    (package / "__init__.py").write_text(
        "from .helper import ANSWER\ndef activate(tau):\n    tau.register_command('pkg', lambda a: ANSWER)\n"
    )
    found = in_directory(tmp_path / "ext", "user")
    assert [s.name for s in found] == ["pkgext"]
    rig = make_rig(tmp_path, fake("ok"), [package])
    events = await rig.run("/pkg")
    assert getattr(events[0], "text", None) == "from helper"


async def test_reload_picks_up_new_code_and_forgets_old_registrations(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "live",
        """
        def activate(tau):
            tau.register_command("v1", lambda args: "one")
    """,
    )
    rig = make_rig(tmp_path, fake("ok"), [ext])
    started = tmp_path / "started.txt"
    write_extension(
        tmp_path / "ext",
        "live",
        f"""
        def note(event):
            with open({str(started)!r}, "a") as handle:
                handle.write("started\\n")

        def activate(tau):
            tau.register_command("v2", lambda args: "two")
            tau.on("session_start", note)
    """,
    )
    events = await rig.run("/reload")
    assert getattr(events[0], "text", None) == "Reloaded 1 extension(s)."
    assert "v1" not in rig.host.registry.commands and "v2" in rig.host.registry.commands
    assert started.read_text() == "started\n"  # the reloaded code hears session_start


async def test_the_first_of_two_extensions_with_one_name_wins(tmp_path: Path) -> None:
    first = write_extension(tmp_path / "a", "same", GOOD)
    second = write_extension(tmp_path / "b", "same", GOOD.replace('"good"', '"other"'))
    rig = make_rig(tmp_path, fake("ok"), [first, second])
    assert rig.host.extensions["same"].location == str(first)
    assert any("already loaded" in w for w in rig.warnings)


async def test_entry_points_of_installed_distributions_are_found_and_loaded(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "tau_demo_ext").mkdir(parents=True)
    (site / "tau_demo_ext" / "__init__.py").write_text(
        "def setup(tau):\n    tau.register_command('demo', lambda a: 'from a package')\n"
    )
    dist = site / "tau_demo_ext-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tau-demo-ext\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[tau.extensions]\ndemo = tau_demo_ext:setup\n")
    found = from_entry_points([str(site)])
    assert [(s.name, s.location) for s in found] == [("demo", "package:tau-demo-ext")]
    import sys

    sys.path.insert(0, str(site))
    try:
        rig = make_rig(tmp_path, fake("ok"))
        rig.host.load(found)
        events = await rig.run("/demo")
    finally:
        sys.path.remove(str(site))
        sys.modules.pop("tau_demo_ext", None)
    assert getattr(events[0], "text", None) == "from a package"


async def test_a_failing_event_subscriber_never_breaks_the_run(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "noisy",
        """
        def activate(tau):
            tau.on("message_update", lambda event: [][1])
    """,
    )
    from tau_agent.testing.fake_provider import text

    rig = make_rig(tmp_path, fake(reply(text("a reply in several words", chunk_size=3))), [ext])
    events = await rig.run("hi")
    assert events[-1].type == "agent_settled" and rig.session.messages[-1].role == "assistant"
    assert sum("IndexError" in w for w in rig.warnings) == 1  # once, not once per streamed delta


async def test_shortcuts_and_renderers_are_kept_for_the_tui_and_undone_on_unload(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "look",
        """
        def activate(tau):
            tau.register_shortcut("ctrl+shift+t", lambda: None, description="toggle")
            tau.register_message_renderer("todo", lambda message: ["- " + str(message.content)])
    """,
    )
    rig = make_rig(tmp_path, fake("ok"), [ext])
    registry = rig.host.registry
    assert registry.shortcuts["ctrl+shift+t"].description == "toggle"
    assert registry.renderers["todo"].render(type("M", (), {"content": "x"})()) == ["- x"]
    rig.host.unload_all()
    assert not registry.shortcuts and not registry.renderers


async def test_a_hostile_extension_cannot_corrupt_the_session_file(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "hostile",
        """
        import asyncio
        def activate(tau):
            tau.on("*", lambda event: (_ for _ in ()).throw(RuntimeError("every event")))
            @tau.on("tool_call")
            async def slow_gate(event):
                await asyncio.sleep(30)
            @tau.on("tool_result")
            def bad_patch(event):
                return "not a patch"
            @tau.on("context")
            def bad_context(event):
                raise ValueError("no context for you")
    """,
    )
    from tau_agent.session.jsonl import JsonlSessionStorage
    from tau_agent.session.log import SessionLog
    from tau_agent.testing.fake_provider import call, reply

    provider = fake(reply(call("bash", {"command": "touch nope"})), "recovered")
    rig = make_rig(tmp_path, provider, [ext], timeout=0.3)
    started = time.monotonic()
    events = await rig.run("go")
    assert time.monotonic() - started < 3 and events[-1].type == "agent_settled"
    assert not (tmp_path / "nope").exists() and "timed out" in rig.result_text()
    path = rig.session.session_file
    rig.session.close()
    assert path is not None
    reopened = SessionLog(JsonlSessionStorage.open(path)).state().messages
    assert [m.role for m in reopened] == ["user", "assistant", "toolResult", "assistant"]
    assert getattr(reopened[-1], "text", "") == "recovered"
