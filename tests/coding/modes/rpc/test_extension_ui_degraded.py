"""What an extension's UI calls become over RPC: widgets below the editor, title and editor text
are sent; header, footer, custom screens, tool expansion, the working look and themes degrade as in Pi (nothing sent, None)."""

from __future__ import annotations

from pathlib import Path

from tau_coding.modes.rpc.extension_ui import RpcUI
from tests.coding.modes.rpc.harness import InProcess


async def test_sent_and_degraded_calls(tmp_path: Path) -> None:
    rpc = InProcess(tmp_path)
    ui = RpcUI(rpc.server.ui)
    ui.set_widget("todo", ["[ ] ship"], "below")
    ui.set_title("τ working")
    ui.set_editor_text("draft")
    ui.set_header(["not sent"])
    ui.set_footer(["not sent"])
    assert await ui.custom(lambda: object()) is None
    ui.set_tools_expanded(True)
    ui.set_working_visible(False)
    ui.set_working_indicator(["●"])
    ui.set_hidden_thinking_label("pondering…")
    await ui.set_editor_component(lambda sources, history: object())
    assert ui.get_editor_component() is None  # as Pi's RPC mode: no editor to replace
    ui.add_autocomplete_provider(lambda line, column: None)
    ui.on_terminal_input(lambda key: True)()  # no terminal: accepted, never called
    assert ui.get_tools_expanded() is False  # as Pi's RPC mode: no TUI to expand
    assert ui.get_all_themes() == [] and ui.get_theme("dark") is None
    assert ui.get_editor_text() == "draft"  # the last text set: the client's editor cannot be read
    sent = [m for m in rpc.output() if m.get("type") == "extension_ui_request"]
    assert [m["method"] for m in sent] == ["setWidget", "setTitle", "set_editor_text"]
    assert sent[0]["widgetPlacement"] == "belowEditor" and sent[0]["widgetLines"] == ["[ ] ship"]
    assert sent[1]["title"] == "τ working" and sent[2]["text"] == "draft"
