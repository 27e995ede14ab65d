"""Recognising a failure the sandbox probably caused, so the model can ask to run outside it.

A heuristic on the output of a command that exited non-zero: a read-only file system, a
permission denied on an absolute path the policy does not make writable, or (with the network
off) an unreachable network, a name that does not resolve, or a refused connection.
"""

from __future__ import annotations

import re
from pathlib import Path

from tau_coding.sandbox.policy import SandboxPolicy

DISABLE_FLAG = "dangerouslyDisableSandbox"
_READ_ONLY = ("read-only file system", "erofs")
_NETWORK = (
    "network is unreachable",
    "temporary failure in name resolution",
    "could not resolve host",
    "name or service not known",
    "nodename nor servname",
    "connection refused",
    "no address associated with hostname",
    "enotfound",
    "eai_again",
    "econnrefused",
    "enetunreach",
    "failed to establish a new connection",
)
_PATH = re.compile(r"(?<![\w.~-])(/[^\s'\"`:;,()]*)")


def sandbox_hint(output: str, exit_code: int | None, policy: SandboxPolicy) -> str | None:
    """One line to add to a failed confined command's result, or None when nothing points at the sandbox."""
    if not exit_code:
        return None
    lower = output.lower()
    cause = None
    if any(sign in lower for sign in _READ_ONLY) or _denied_outside(output, policy):
        cause = "only the project and temp dirs are writable in it"
    elif not policy.network and any(sign in lower for sign in _NETWORK):
        cause = "the network is off in it"
    if cause is None:
        return None
    return (
        f"[This command ran in the sandbox and may have failed because of it: {cause}. "
        f"If it must run outside, call bash again with {DISABLE_FLAG}: true.]"
    )


def _denied_outside(output: str, policy: SandboxPolicy) -> bool:
    for line in output.splitlines():
        if "permission denied" not in line.lower():
            continue
        for match in _PATH.finditer(line):
            path = Path(match.group(1))
            if not policy.is_writable(path) or any(path == h or h in path.parents for h in policy.hidden):
                return True
    return False
