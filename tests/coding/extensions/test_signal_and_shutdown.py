"""``tau.signal`` is the running agent's cancellation (a handler's long wait ends when the user
cancels the run) and None while idle; ``tau.shutdown()`` does nothing without a frontend."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.testing.fake_provider import call, reply
from tests.coding.extensions.helpers import Rig, fake, make_rig, write_extension

WAITER = """
import asyncio

seen = {}

def activate(tau):
    seen["idle"] = tau.signal

    async def before_tool(event):
        signal = tau.signal
        seen["during"] = signal
        await signal.wait()  # long work that stops when the run is cancelled
        seen["reason"] = signal.reason

    tau.on("tool_call", before_tool)
    tau.register_command("bye", lambda args: tau.shutdown() or "asked")
    tau.register_command("sig", lambda args: repr(tau.signal))
"""


async def test_a_handler_waiting_on_the_signal_stops_when_the_run_is_cancelled(tmp_path: Path) -> None:
    path = write_extension(tmp_path / "ext", "waiter", WAITER)
    rig = make_rig(tmp_path, fake(reply(call("read", {"path": "x"})), "never"), [path], timeout=30.0)
    seen = _seen(rig)
    run = asyncio.ensure_future(rig.run("go"))
    for _ in range(500):
        if "during" in seen:
            break
        await asyncio.sleep(0.01)
    signal = seen["during"]
    assert isinstance(signal, CancellationToken) and not signal.cancelled
    rig.session.cancel()  # what Esc does
    await asyncio.wait_for(run, 10)
    assert seen["reason"] == "Operation aborted"
    assert rig.session.harness.current_signal is None


async def test_no_signal_while_idle_and_shutdown_without_a_frontend_does_nothing(tmp_path: Path) -> None:
    path = write_extension(tmp_path / "ext", "waiter", WAITER)
    rig = make_rig(tmp_path, fake("ok"), [path])
    assert _seen(rig)["idle"] is None
    await rig.run("/bye")
    await rig.run("hello")  # the session goes on
    assert rig.session.messages[-1].content[0].text == "ok"  # type: ignore[union-attr]


def _seen(rig: Rig) -> dict[str, Any]:
    module = rig.host.extensions["waiter"].module
    assert module is not None
    seen: dict[str, Any] = module.seen
    return seen
