"""When a failed MCP server may be restarted on demand: exponential backoff, capped.

A server that crashed (or stopped answering) is restarted by the next call to one of its
tools, but not sooner than ``restart_delay`` after its last failure, so a server that dies on
every call costs the session a restart at most every ``cap`` seconds. A call that gets an
answer resets the count; so does ``/mcp restart``, which never waits.
"""

from __future__ import annotations

BASE = 1.0
CAP = 60.0


def restart_delay(failures: int, *, base: float = BASE, cap: float = CAP) -> float:
    """Seconds after the ``failures``-th failure in a row before a call may restart the server:
    none after the first, then ``base``, twice that, and so on, never more than ``cap``."""
    if failures <= 1:
        return 0.0
    return min(cap, base * 2.0 ** min(failures - 2, 64))
