"""An extension's Cancel of a new session, a switch or a fork reaches the RPC client as Pi's
``cancelled: true``, and nothing changes."""

from __future__ import annotations

from pathlib import Path

from tau_coding.extensions.builtin import tau_extension
from tau_coding.extensions.host import ExtensionHost
from tau_coding.extensions.ui import HeadlessUI
from tests.coding.extensions.helpers import source, write_extension
from tests.coding.modes.rpc.harness import InProcess


async def test_a_cancelled_new_session_is_reported_as_cancelled(tmp_path: Path) -> None:
    rpc = InProcess(tmp_path)
    path = write_extension(
        tmp_path / "ext",
        "keeper",
        """
        from tau_coding.extensions import Cancel
        def activate(tau):
            tau.on("session_before_switch", lambda event: Cancel("keep working here"))
        """,
    )
    host = ExtensionHost(cwd=tmp_path, ui=HeadlessUI(lambda m: None), warn=lambda m: None)
    host.add_builtin("tau", tau_extension(rpc.control.session.harness.tools))
    host.load([source(path)])
    host.bind(rpc.control.session)
    before = rpc.control.session.session_file
    await rpc.command(type="new_session", id="n1")
    [response] = [m for m in rpc.output() if m.get("type") == "response"]
    assert response["success"] is True and response["data"] == {"cancelled": True}
    assert rpc.control.session.session_file == before
