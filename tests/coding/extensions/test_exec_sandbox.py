"""tau.exec under the model's bash sandbox, with real bubblewrap (skipped, with the reason, without it)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tau_coding.extensions.api import ExtensionAPI
from tau_coding.sandbox.policy import SandboxPolicy, sandbox_policy
from tau_coding.sandbox.probe import sandbox_availability
from tests.coding.extensions.helpers import Rig, fake, make_rig

_found = sandbox_availability(platform="linux")
pytestmark = pytest.mark.skipif(_found.kind != "bwrap", reason=f"bubblewrap cannot run here: {_found.reason}")


def _sandboxed(tmp_path: Path) -> tuple[Rig, ExtensionAPI, Path, Path]:
    project, outside, home = tmp_path / "project", tmp_path / "outside", tmp_path / "home"
    for path in (project, outside, home):
        path.mkdir()
    values = {"sandbox.enabled": True}
    policy: SandboxPolicy | None = sandbox_policy(
        lambda key, default=None: values.get(key, default),
        project,
        home=home,
        tau_home=home / ".tau",
        temp=[],
    )
    rig = make_rig(project, fake())
    rig.host.sandbox_for = lambda: policy
    return rig, ExtensionAPI(rig.host, "writer"), project, outside


async def test_a_sandboxed_exec_cannot_write_outside_the_project(tmp_path: Path) -> None:
    _rig, tau, project, outside = _sandboxed(tmp_path)
    inside = await tau.exec("sh", ["-c", "echo in > made.txt"])
    assert inside.code == 0 and inside.sandboxed and (project / "made.txt").read_text() == "in\n"
    escaped = await tau.exec("sh", ["-c", f"echo out > {outside}/escaped.txt"])
    assert escaped.code != 0 and escaped.sandboxed
    assert "Read-only file system" in escaped.stderr
    assert not (outside / "escaped.txt").exists()


async def test_unconfined_exec_needs_the_users_word(tmp_path: Path) -> None:
    rig, tau, _, outside = _sandboxed(tmp_path)
    refused = await tau.exec("sh", ["-c", f"echo out > {outside}/a.txt"], unconfined=True)
    assert refused.code != 0 and not (outside / "a.txt").exists()
    assert any("ran confined" in w and "sandbox.unconfinedExtensions" in w for w in rig.warnings)
    rig.host.unconfined_exec = frozenset({"writer"})
    allowed = await tau.exec("sh", ["-c", f"echo out > {outside}/a.txt"], unconfined=True)
    assert allowed.code == 0 and not allowed.sandboxed and (outside / "a.txt").exists()


async def test_without_a_sandbox_exec_runs_unconfined(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake())
    tau = ExtensionAPI(rig.host, "writer")
    result = await tau.exec("sh", ["-c", "echo hi"])
    assert (result.stdout, result.sandboxed) == ("hi\n", False)


async def test_a_timed_out_exec_kills_its_children(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake())
    tau = ExtensionAPI(rig.host, "writer")
    marker = tmp_path / "child-lived"
    result = await tau.exec("sh", ["-c", f"(sleep 1.5; touch {marker}) & sleep 30"], timeout=0.3)
    assert result.killed
    await asyncio.sleep(2)
    assert not marker.exists()
