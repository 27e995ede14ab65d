"""The bubblewrap command line for one confined command (Linux): a pure function of the policy.

The whole file system is mounted read-only, then fresh ``/dev`` and ``/proc``, then the writable
paths are bound read-write, then the secrets are covered (an empty tmpfs for a directory,
``/dev/null`` for a file; also inside a writable path such as a home under ``/tmp``), and last
the protected paths inside writable ones are bound read-only again; a later mount wins. The command gets its own PID, IPC and (unless the network
is allowed) network namespace, a new terminal session (it cannot push keys into Tau's terminal
with TIOCSTI) and dies with bwrap, so killing bwrap's process group kills everything inside.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tau_coding.sandbox.policy import SandboxPolicy

# The options that confine, without any path: also what the availability probe runs.
ISOLATION: tuple[str, ...] = (
    "--unshare-pid",
    "--unshare-ipc",
    "--die-with-parent",
    "--new-session",
)


def bwrap_argv(argv: Sequence[str], cwd: Path, policy: SandboxPolicy, bwrap: str = "bwrap") -> list[str]:
    """The argv that runs ``argv`` in ``cwd`` confined by ``policy`` (``bwrap``: the program)."""
    out = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", *ISOLATION]
    if not policy.network:
        out.append("--unshare-net")
    for path in policy.writable:
        out += ["--bind" if path == policy.project else "--bind-try", str(path), str(path)]
    for path in policy.hidden:
        out += ["--tmpfs", str(path)]
    for path in policy.hidden_files:
        out += ["--ro-bind", "/dev/null", str(path)]
    for path in policy.protected:
        if not any(path == h or h in path.parents for h in policy.hidden):  # would show the real one again
            out += ["--ro-bind-try", str(path), str(path)]
    out += ["--chdir", str(cwd), "--", *argv]
    return out
