"""The ``sandbox-exec`` profile (macOS Seatbelt) equivalent to the bubblewrap plan.

Everything is allowed but: writes outside the writable paths, writes to the protected paths,
reading or writing the hidden secrets, and (unless the network is allowed) IP traffic. Unix
sockets stay usable, as under bubblewrap's read-only bind. Paths are expected resolved
(``/private/tmp``, not ``/tmp``), since Seatbelt matches the real path.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tau_coding.sandbox.policy import SandboxPolicy

SANDBOX_EXEC = "/usr/bin/sandbox-exec"
# Device files every program writes to; outside any writable path.
_DEVICE_WRITES = (
    '(literal "/dev/null")',
    '(literal "/dev/zero")',
    '(subpath "/dev/fd")',
    '(regex #"^/dev/tty")',
)


def quote(path: Path | str) -> str:
    """A Seatbelt string literal for ``path``."""
    text = str(path).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def seatbelt_profile(policy: SandboxPolicy) -> str:
    """The profile text for ``policy`` (SBPL, ``(version 1)``)."""
    lines = ["(version 1)", "(allow default)"]
    allowed = [f"(require-not (subpath {quote(p)}))" for p in policy.writable]
    allowed += [f"(require-not {device})" for device in _DEVICE_WRITES]
    lines.append("(deny file-write* (require-all")
    lines += [f"  {rule}" for rule in allowed]
    lines.append("))")
    if policy.protected:
        lines.append("(deny file-write*")
        lines += [f"  (subpath {quote(p)})" for p in policy.protected]
        lines.append(")")
    secrets = [f"  (subpath {quote(p)})" for p in policy.hidden]
    secrets += [f"  (literal {quote(p)})" for p in policy.hidden_files]
    if secrets:
        lines += ["(deny file-read* file-write*", *secrets, ")"]
    if not policy.network:
        lines.append('(deny network-outbound (remote ip "*:*"))')
        lines.append('(deny network-bind (local ip "*:*"))')
    return "\n".join(lines) + "\n"


def sandbox_exec_argv(
    argv: Sequence[str], policy: SandboxPolicy, sandbox_exec: str = SANDBOX_EXEC
) -> list[str]:
    """The argv that runs ``argv`` under ``sandbox-exec`` with the profile of ``policy``."""
    return [sandbox_exec, "-p", seatbelt_profile(policy), *argv]
