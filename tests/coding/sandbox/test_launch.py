"""plan_launch and the probe: confined when the sandbox can start; otherwise one warning, then
``sandbox.required`` decides. The probe is real: a PATH without bwrap makes it unavailable."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tau_coding.sandbox import launch
from tau_coding.sandbox.launch import plan_launch
from tau_coding.sandbox.policy import SandboxPolicy
from tau_coding.sandbox.probe import Availability, sandbox_availability

PROJECT = Path("/work/p")
MISSING = Availability("none", None, "bwrap not found on PATH (install the bubblewrap package)")


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(launch, "_warned", set())
    yield


def _policy(required: bool, seen: list[str]) -> SandboxPolicy:
    return SandboxPolicy(project=PROJECT, writable=(PROJECT,), required=required, notify=seen.append)


def test_no_policy_runs_the_command_as_given() -> None:
    planned = plan_launch(["/bin/sh", "-c", "ls"], PROJECT, None, lambda: MISSING)
    assert planned.argv == ["/bin/sh", "-c", "ls"] and not planned.confined and planned.notice is None


def test_an_available_bwrap_confines() -> None:
    planned = plan_launch(
        ["ls"], PROJECT, _policy(False, []), lambda: Availability("bwrap", "/usr/bin/bwrap")
    )
    assert planned.confined and planned.argv is not None and planned.argv[0] == "/usr/bin/bwrap"
    assert planned.argv[-2:] == ["--", "ls"]


def test_unavailable_not_required_warns_once_then_runs_unconfined() -> None:
    seen: list[str] = []
    first = plan_launch(["ls"], PROJECT, _policy(False, seen), lambda: MISSING)
    second = plan_launch(["ls"], PROJECT, _policy(False, seen), lambda: MISSING)
    assert first.argv == second.argv == ["ls"] and not first.confined
    assert first.notice == seen[0] and second.notice is None and len(seen) == 1
    assert seen[0] == (
        "Sandbox unavailable (bwrap not found on PATH (install the bubblewrap package)); "
        "commands run unconfined"
    )


def test_unavailable_and_required_refuses_every_command_warning_once() -> None:
    seen: list[str] = []
    for _ in range(3):
        planned = plan_launch(["ls"], PROJECT, _policy(True, seen), lambda: MISSING)
        assert planned.argv is None and planned.notice is not None
        assert "sandbox.required is true" in planned.notice and "bubblewrap" in planned.notice
    assert len(seen) == 1 and "commands are refused" in seen[0]


def test_probe_without_bwrap_on_path_says_so(tmp_path: Path) -> None:
    found = sandbox_availability(path=str(tmp_path), platform="linux")
    assert found.kind == "none" and found.program is None and "bwrap not found" in found.reason
    assert sandbox_availability(path=str(tmp_path), platform="linux") is found  # remembered


def test_probe_elsewhere_has_no_sandbox() -> None:
    assert sandbox_availability(platform="win32").kind == "none"


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bwrap is not installed (Debian: bubblewrap)")
def test_probe_finds_a_working_bwrap() -> None:
    found = sandbox_availability(path=os.environ.get("PATH"), platform="linux")
    if found.kind == "none":
        pytest.skip(f"bwrap cannot run here: {found.reason}")
    assert found.kind == "bwrap" and found.program == shutil.which("bwrap")
