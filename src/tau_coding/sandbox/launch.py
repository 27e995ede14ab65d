"""What to execute for one command under a policy: confined, unconfined after a warning, or not at all.

The first time a process finds the sandbox unavailable it says so in one line (to
``SandboxPolicy.notify`` and in that command's result); then ``sandbox.required`` decides: a
required sandbox refuses every command with a tool error, otherwise commands run unconfined.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tau_coding.sandbox.bwrap import bwrap_argv
from tau_coding.sandbox.policy import SandboxPolicy
from tau_coding.sandbox.probe import Availability, sandbox_availability
from tau_coding.sandbox.seatbelt import sandbox_exec_argv

_warned: set[str] = set()


@dataclass(frozen=True, slots=True)
class Launch:
    """``argv`` to execute (None: refused, ``notice`` says why); ``confined``: inside the sandbox.

    ``notice`` is a line for the command's result: the one-time warning, or the refusal.
    """

    argv: list[str] | None
    confined: bool
    notice: str | None = None


def plan_launch(
    argv: Sequence[str],
    cwd: Path,
    policy: SandboxPolicy | None,
    availability: Callable[[], Availability] = sandbox_availability,
) -> Launch:
    """How to run ``argv`` in ``cwd``: unchanged when ``policy`` is None."""
    if policy is None:
        return Launch(list(argv), confined=False)
    found = availability()
    if found.kind == "bwrap" and found.program:
        return Launch(bwrap_argv(argv, cwd, policy, found.program), confined=True)
    if found.kind == "sandbox-exec" and found.program:
        return Launch(sandbox_exec_argv(argv, policy, found.program), confined=True)
    if policy.required:
        refusal = (
            f"Cannot run the command: the sandbox cannot start ({found.reason}) and sandbox.required "
            "is true. Install bubblewrap, or set sandbox.required to false to run commands unconfined."
        )
        _warn_once(
            f"Sandbox unavailable ({found.reason}); sandbox.required is true: commands are refused", policy
        )
        return Launch(None, confined=False, notice=refusal)
    line = _warn_once(f"Sandbox unavailable ({found.reason}); commands run unconfined", policy)
    return Launch(list(argv), confined=False, notice=line)


def _warn_once(line: str, policy: SandboxPolicy) -> str | None:
    """``line`` the first time it comes up in this process (also to ``policy.notify``), else None."""
    if line in _warned:
        return None
    _warned.add(line)
    if policy.notify is not None:
        policy.notify(line)
    return line
