"""sandbox_hint: failures that point at the sandbox get a line; others do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_coding.sandbox.hint import sandbox_hint
from tau_coding.sandbox.policy import SandboxPolicy

PROJECT = Path("/work/p")
OFF = SandboxPolicy(project=PROJECT, writable=(PROJECT, Path("/tmp")), protected=(PROJECT / ".tau",))
ON = SandboxPolicy(project=PROJECT, writable=(PROJECT, Path("/tmp")), network=True)


@pytest.mark.parametrize(
    "output",
    [
        "touch: cannot touch '/etc/x': Read-only file system",
        "OSError: [Errno 30] Read-only file system: '/usr/lib/foo'",
        "bash: /home/u/.bashrc: Permission denied",
        "cp: cannot create regular file '/work/p/.tau/settings.json': Permission denied",
        "curl: (6) Could not resolve host: example.com",
        "ssh: Could not resolve hostname x: Temporary failure in name resolution",
        "curl: (7) Failed to connect to 127.0.0.1 port 80: Connection refused",
        "npm ERR! code ENOTFOUND",
        "connect: Network is unreachable",
    ],
)
def test_signs_of_the_sandbox_get_the_hint(output: str) -> None:
    hint = sandbox_hint(output, 1, OFF)
    assert hint is not None and "dangerouslyDisableSandbox: true" in hint and "\n" not in hint


def test_the_hint_names_the_cause() -> None:
    assert "writable" in (sandbox_hint("x: Read-only file system", 1, OFF) or "")
    assert "network is off" in (sandbox_hint("Connection refused", 7, OFF) or "")


@pytest.mark.parametrize(
    ("output", "code", "policy"),
    [
        ("touch: cannot touch '/etc/x': Read-only file system", 0, OFF),  # it succeeded
        ("touch: cannot touch '/etc/x': Read-only file system", None, OFF),  # killed, not failed
        ("cat: /work/p/secret.txt: Permission denied", 1, OFF),  # inside the project: not ours
        ("cat: /tmp/x/y: Permission denied", 1, OFF),
        ("curl: (7) Failed to connect to 127.0.0.1 port 80: Connection refused", 7, ON),  # network on
        ("AssertionError: 2 != 3", 1, OFF),
        ("", 2, OFF),
    ],
)
def test_other_failures_get_no_hint(output: str, code: int | None, policy: SandboxPolicy) -> None:
    assert sandbox_hint(output, code, policy) is None
