"""What the sandbox adds to one bash tool call: a whole ``true`` through the tool, confined by
bubblewrap against unconfined, calls interleaved so load drifts hit both alike.

Target (issue 20): starting a sandboxed command adds at most 15 ms (median wall time). The CPU
time of Tau and its children (user+sys) is reported too: it is what the machine's load does not
blur. NaN where bwrap cannot run.
"""

from __future__ import annotations

import asyncio
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool
from tau_coding.sandbox.policy import sandbox_policy
from tau_coding.sandbox.probe import sandbox_availability
from tau_coding.tools import create_coding_tools

Case = tuple[str, Callable[[], float], str, float | None]


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


async def _one(tool: AgentTool) -> tuple[float, float]:
    cpu, start = _cpu(), time.perf_counter()
    result = await tool.execute("bench", {"command": "true"}, CancellationToken(), lambda _: None)
    assert not result.is_error, result
    return time.perf_counter() - start, _cpu() - cpu


def sandbox_overhead(calls: int) -> dict[str, float]:
    """Median and least wall-time and median CPU-time overhead per call, in milliseconds."""
    if sandbox_availability().kind != "bwrap":
        return {"median": float("nan"), "least": float("nan"), "cpu": float("nan")}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        home = root / "home"
        home.mkdir()
        (home / ".ssh").mkdir()
        policy = sandbox_policy(
            lambda key, default=None: None, root, home=home, tau_home=home / ".tau", forced=True
        )
        plain = create_coding_tools(root, names=["bash"])["bash"]
        confined = create_coding_tools(root, names=["bash"], sandbox=policy)["bash"]

        async def measure() -> dict[str, list[tuple[float, float]]]:
            out: dict[str, list[tuple[float, float]]] = {"plain": [], "confined": []}
            for _ in range(3):  # warm both paths (imports, the probe)
                await _one(plain)
                await _one(confined)
            for _ in range(calls):
                out["plain"].append(await _one(plain))
                out["confined"].append(await _one(confined))
            return out

        runs = asyncio.run(measure())
    wall = {k: [w for w, _ in v] for k, v in runs.items()}
    cpu = {k: [c for _, c in v] for k, v in runs.items()}
    return {
        "median": (statistics.median(wall["confined"]) - statistics.median(wall["plain"])) * 1e3,
        "least": (min(wall["confined"]) - min(wall["plain"])) * 1e3,
        "cpu": (statistics.median(cpu["confined"]) - statistics.median(cpu["plain"])) * 1e3,
    }


def cases(smoke: bool) -> list[Case]:
    calls = 5 if smoke else 100
    numbers: dict[str, float] = {}

    def get(key: str) -> float:
        if not numbers:
            numbers.update(sandbox_overhead(calls))
        return numbers[key]

    return [
        ("sandbox: bash call overhead, median wall", lambda: get("median"), "ms", None if smoke else 15.0),
        ("sandbox: bash call overhead, least wall", lambda: get("least"), "ms", None),
        ("sandbox: bash call overhead, median CPU", lambda: get("cpu"), "ms", None),
    ]


if __name__ == "__main__":
    for name, value in sandbox_overhead(int(os.environ.get("CALLS", "100"))).items():
        print(f"{name}: {value:.2f} ms")
