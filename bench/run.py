"""Tau's benchmark suite: prints a table and writes the numbers as JSON.

python bench/run.py            full sizes, compared with the targets
python bench/run.py --smoke    small sizes, to check the suite itself works (CI)
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bench_loop, bench_tui


@dataclass
class Row:
    name: str
    value: float
    unit: str
    target: float | None

    @property
    def ok(self) -> bool | None:
        return None if self.target is None else self.value <= self.target


def cases(smoke: bool) -> list[tuple[str, Callable[[], float], str, float | None]]:
    sizes = (100, 1_000) if smoke else (100, 10_000, 100_000)
    out: list[tuple[str, Callable[[], float], str, float | None]] = []
    for n in sizes:
        out.append(
            (f"loop: stream, {n} deltas", lambda n=n: bench_loop.stream_delta_cost(n), "us/delta", 2.0)
        )
    turns = 20 if smoke else 500
    out.append(
        (f"loop: tool round trip, {turns} turns", lambda: bench_loop.tool_turn_cost(turns), "us/turn", 200.0)
    )
    out.extend(tui_cases(smoke))
    return out


def tui_cases(smoke: bool) -> list[tuple[str, Callable[[], float], str, float | None]]:
    deltas = (200, 1_000) if smoke else (1_000, 10_000)
    out: list[tuple[str, Callable[[], float], str, float | None]] = [
        ("tui: launch to editable prompt", lambda: bench_tui.startup_ms(1 if smoke else 3), "ms", 400.0),
    ]
    for n in deltas:
        out.append(
            (f"tui: reducer, {n} deltas", lambda n=n: bench_tui.reducer_delta_cost(n), "us/delta", 5.0)
        )
        out.append(
            (f"tui: stream into app, {n} deltas", lambda n=n: bench_tui.app_delta_cost(n), "us/delta", 200.0)
        )
    loaded = 1_000 if smoke else 10_000
    out.append(
        (f"tui: keystroke, {loaded} messages loaded", lambda: bench_tui.keystroke_ms(loaded), "ms/key", 16.0)
    )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--smoke", action="store_true", help="small sizes; no target checks")
    parser.add_argument("--out", default="bench/results/latest.json", help="where to write the JSON results")
    parser.add_argument("-k", default="", help="only run cases whose name contains this text")
    args = parser.parse_args()
    rows = [
        Row(name, fn(), unit, None if args.smoke else target)
        for name, fn, unit, target in cases(args.smoke)
        if args.k in name
    ]
    width = max(len(r.name) for r in rows)
    print(f"{'case':<{width}}  {'value':>10}  unit       target")
    for r in rows:
        verdict = "" if r.ok is None else ("ok" if r.ok else "MISSED")
        target = "" if r.target is None else f"<= {r.target:g} {verdict}"
        print(f"{r.name:<{width}}  {r.value:>10.2f}  {r.unit:<9}  {target}")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"python": sys.version.split()[0], "machine": platform.machine(), "smoke": args.smoke}
    out.write_text(json.dumps({"meta": meta, "rows": [asdict(r) | {"ok": r.ok} for r in rows]}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
