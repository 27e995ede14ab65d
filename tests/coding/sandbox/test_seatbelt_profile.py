"""seatbelt_profile: the macOS sandbox-exec profile as text; run for real only where it exists."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tau_coding.sandbox.policy import SandboxPolicy
from tau_coding.sandbox.seatbelt import quote, sandbox_exec_argv, seatbelt_profile

PROJECT = Path("/Users/u/project")
POLICY = SandboxPolicy(
    project=PROJECT,
    writable=(PROJECT, Path("/private/tmp")),
    hidden=(Path("/Users/u/.ssh"),),
    hidden_files=(Path("/Users/u/.netrc"),),
    protected=(PROJECT / ".tau",),
)


def test_writes_denied_outside_the_writable_paths_and_devices() -> None:
    text = seatbelt_profile(POLICY)
    assert text.startswith("(version 1)\n(allow default)\n(deny file-write* (require-all\n")
    assert '  (require-not (subpath "/Users/u/project"))\n' in text
    assert '  (require-not (subpath "/private/tmp"))\n' in text
    assert '  (require-not (literal "/dev/null"))\n' in text


def test_protected_paths_and_secrets() -> None:
    text = seatbelt_profile(POLICY)
    assert '(deny file-write*\n  (subpath "/Users/u/project/.tau")\n)' in text
    assert (
        '(deny file-read* file-write*\n  (subpath "/Users/u/.ssh")\n  (literal "/Users/u/.netrc")\n)' in text
    )


def test_ip_network_denied_unless_allowed() -> None:
    assert '(deny network-outbound (remote ip "*:*"))' in seatbelt_profile(POLICY)
    open_net = SandboxPolicy(project=PROJECT, writable=(PROJECT,), network=True)
    assert "network" not in seatbelt_profile(open_net)


def test_paths_are_quoted() -> None:
    assert quote('/a "b"\\c') == '"/a \\"b\\"\\\\c"'


def test_sandbox_exec_argv_carries_the_profile() -> None:
    argv = sandbox_exec_argv(["/bin/bash", "-c", "ls"], POLICY)
    assert argv[:2] == ["/usr/bin/sandbox-exec", "-p"] and argv[3:] == ["/bin/bash", "-c", "ls"]
    assert argv[2] == seatbelt_profile(POLICY)


@pytest.mark.skipif(
    sys.platform != "darwin" or not shutil.which("sandbox-exec"), reason="needs macOS sandbox-exec"
)
def test_sandbox_exec_confines_writes(tmp_path: Path) -> None:  # pragma: no cover - macOS only
    project = (tmp_path / "p").resolve()
    project.mkdir()
    outside = (tmp_path / "outside").resolve()
    policy = SandboxPolicy(project=project, writable=(project,))
    script = f"touch {project}/in && touch {outside}"
    done = subprocess.run(sandbox_exec_argv(["/bin/sh", "-c", script], policy), capture_output=True)
    assert (project / "in").exists() and not outside.exists() and done.returncode != 0
