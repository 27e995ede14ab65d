"""The extension-UI sub-protocol: dialogs wait for their answer, time out, or are cancelled."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.coding.modes.rpc.harness import InProcess


async def _request(rpc: InProcess) -> dict[str, object]:
    lines = await rpc.until(lambda m: m.get("type") == "extension_ui_request")
    return lines[-1]


async def test_select_returns_the_value_the_client_sends(tmp_path: Path) -> None:
    rpc = InProcess(tmp_path)
    pending = asyncio.ensure_future(rpc.server.ui.select("Pick", ["Allow", "Block"], timeout=5))
    request = await _request(rpc)
    assert request["method"] == "select" and request["options"] == ["Allow", "Block"]
    assert request["title"] == "Pick" and request["timeout"] == 5000
    await rpc.line(
        b'{"type":"extension_ui_response","id":"%s","value":"Block"}' % str(request["id"]).encode()
    )
    assert await pending == "Block"
    assert rpc.output() == []  # a dialog answer gets no response of its own


async def test_confirm_input_and_editor_answers(tmp_path: Path) -> None:
    rpc = InProcess(tmp_path)
    confirm = asyncio.ensure_future(rpc.server.ui.confirm("Clear?", "All lost."))
    request = await _request(rpc)
    assert (request["method"], request["message"]) == ("confirm", "All lost.") and "timeout" not in request
    await rpc.command(type="extension_ui_response", id=request["id"], confirmed=True)
    assert await confirm is True

    text = asyncio.ensure_future(rpc.server.ui.input("Name", "type here"))
    request = await _request(rpc)
    assert request["placeholder"] == "type here"
    await rpc.command(type="extension_ui_response", id=request["id"], cancelled=True)
    assert await text is None

    edited = asyncio.ensure_future(rpc.server.ui.editor("Edit", "Line 1\nLine 2"))
    request = await _request(rpc)
    assert request["prefill"] == "Line 1\nLine 2"
    await rpc.command(type="extension_ui_response", id=request["id"], value="Line 1\nLine 3")
    assert await edited == "Line 1\nLine 3"


async def test_a_dialog_resolves_to_its_default_when_the_timeout_passes(tmp_path: Path) -> None:
    rpc = InProcess(tmp_path)
    assert await rpc.server.ui.confirm("Sure?", "Really?", timeout=0.05) is False
    assert await rpc.server.ui.select("Pick", ["a"], timeout=0.05) is None
    assert rpc.server.ui.pending == 0
    late = rpc.output()[0]
    await rpc.command(type="extension_ui_response", id=late["id"], confirmed=True)  # too late: ignored
    assert rpc.output() == []


async def test_open_dialogs_are_cancelled_at_shutdown(tmp_path: Path) -> None:
    rpc = InProcess(tmp_path)
    pending = asyncio.ensure_future(rpc.server.ui.input("Name"))
    await _request(rpc)
    await rpc.server.shutdown()
    assert await pending is None


async def test_notices_are_written_and_need_no_answer(tmp_path: Path) -> None:
    rpc = InProcess(tmp_path)
    ui = rpc.server.ui
    ui.notify("Command blocked", "warning")
    ui.set_status("my-ext", "Turn 3")
    ui.set_status("my-ext", None)
    ui.set_widget("my-ext", ["--- W ---", "Line 1"], "belowEditor")
    ui.set_title("tau - project")
    ui.set_editor_text("prefilled")
    lines = rpc.output()
    assert [line["method"] for line in lines] == [
        "notify",
        "setStatus",
        "setStatus",
        "setWidget",
        "setTitle",
        "set_editor_text",
    ]
    assert lines[0]["notifyType"] == "warning" and lines[1]["statusText"] == "Turn 3"
    assert "statusText" not in lines[2]
    assert lines[3]["widgetLines"] == ["--- W ---", "Line 1"] and lines[3]["widgetPlacement"] == "belowEditor"
    assert len({line["id"] for line in lines}) == 6 and ui.pending == 0
