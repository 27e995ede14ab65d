"""Whole ``tau`` processes against the local scripted server: the rows of issue 17's table.

* one answer: ``tau -p`` whose model streams one text delta; its CPU is the fixed cost of a run.
* read-then-answer: ``tau -p``, 2 model calls, 1 ``read``; the whole run's wall time.
* extra wall per tool turn: 90 tiny ``read`` turns, minus a one-answer run, divided by 90.
* resume: ``tau -p --session`` of a 10k or 100k-entry session and one prompt, minus the same run
  on a new session; the 100k run's peak RSS too. "Again": the same session resumed run after
  run, so the request checkpoint its previous run left is beside it (the usual case); the
  plain rows resume a copy that never had one.
* fork: ``tau --mode rpc --session`` of a 100k-entry session, fork at its last user message,
  end of input; minus the same process on a new session answering ``get_state``.

Runs alternate between the measured case and its baseline so that load on the (shared,
noisy) machine falls on both alike; each row is a median, ``python -m bench.bench_process``
prints every run's range and quiet minimum too.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

from bench.bench_sessions import make_session
from bench.tau_process import Measured, Project, project
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply

ANSWER = ScriptedReply(text="The port is 9090.")
FILES = {"config.py": "PORT = 9090\n"}


def read_turn(n: int) -> ScriptedReply:
    return ScriptedReply(
        text="Let me look.", calls=[ScriptedCall(f"call_{n:09d}", "read", {"path": "config.py"})]
    )


def one_answer(p: Project) -> Measured:
    return p.run([ANSWER], ["-p", "Which port?"])


def read_then_answer(p: Project) -> Measured:
    return p.run([read_turn(0), ANSWER], ["-p", "Which port?"])


def tool_turns(p: Project, turns: int = 90) -> Measured:
    return p.run([*(read_turn(n) for n in range(turns)), ANSWER], ["-p", "Which port?"])


def copy_at_rest(source: Path, target: Path) -> None:
    """``source`` copied to ``target`` and written back to the disk, as a session file a user
    resumes has long been: the copy's 48 MB of dirty pages would otherwise be flushed by the
    first fsync the measured run makes (its close), 20+ ms charged to it that no user pays."""
    shutil.copyfile(source, target)
    fd = os.open(target, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def kept_session(p: Project, name: str) -> Path:
    """Where a measured session file lives: outside the project, as a user's sessions do (in
    Tau's data dir). Inside it, every run's file checkpoint would also store the session file
    itself (4.8 MB for 10k entries), a cost no user's resume pays."""
    return p.home / name


def resume(p: Project, entries: int) -> Measured:
    copy = kept_session(p, "resumed.jsonl")
    copy_at_rest(make_session(entries), copy)
    try:
        return p.run([ANSWER], ["-p", "--session", str(copy), "Which port?"])
    finally:
        copy.unlink()


def resumed_again(entries: int) -> Runner:
    """Resume of a session whose last run was Tau's, as a user resumes their own session: the
    file is resumed in place run after run (each run adds its prompt and answer, and leaves
    the request checkpoint beside it for the next; the first, warming, run writes the first)."""
    made: list[Path] = []

    def run(p: Project) -> Measured:
        if not made:
            made.append(kept_session(p, f"resumed-again-{entries}.jsonl"))
            copy_at_rest(make_session(entries), made[0])
        return p.run([ANSWER], ["-p", "--session", str(made[0]), "Which port?"])

    return run


def _last_user_entry(path: Path) -> str:
    found = ""
    with path.open("rb") as lines:
        for line in lines:
            if b'"role":"user"' in line:
                found = json.loads(line)["id"]
    return found


def fork(p: Project, entries: int) -> Measured:
    source = make_session(entries)
    copy = kept_session(p, "forked-from.jsonl")
    copy_at_rest(source, copy)
    command = {"type": "fork", "id": "1", "entryId": _last_user_entry(source)}
    try:
        return p.run(
            [ANSWER], ["--mode", "rpc", "--session", str(copy)], json.dumps(command).encode() + b"\n"
        )
    finally:
        copy.unlink()


def rpc_idle(p: Project) -> Measured:
    return p.run([ANSWER], ["--mode", "rpc"], b'{"type":"get_state","id":"1"}\n')


Runner = Callable[[Project], Measured]


def paired(case: Runner, base: Runner, runs: int) -> tuple[list[Measured], list[Measured]]:
    """``runs`` alternating runs of ``case`` and ``base`` in one scratch project."""
    cases, bases = [], []
    with project(FILES) as p:
        case(p)  # warm: bytecode, page cache, the session template
        for _ in range(runs):
            bases.append(base(p))
            cases.append(case(p))
    return cases, bases


def _median(values: list[float]) -> float:
    return statistics.median(values)


class Rows:
    """Measures lazily, once per row group, so the suite runs each group a single time."""

    def __init__(self, runs: int, sizes: tuple[int, int]) -> None:
        self.runs = runs
        self.small, self.big = sizes
        self._done: dict[str, tuple[list[Measured], list[Measured]]] = {}

    def group(self, name: str) -> tuple[list[Measured], list[Measured]]:
        if name not in self._done:
            self._done[name] = self._measure(name)
        return self._done[name]

    def _measure(self, name: str) -> tuple[list[Measured], list[Measured]]:
        if name == "read":
            return paired(read_then_answer, one_answer, self.runs)
        if name == "turns":
            return paired(tool_turns, one_answer, self.runs)
        if name == "resume-small":
            return paired(lambda p: resume(p, self.small), one_answer, self.runs)
        if name == "resume-big":
            return paired(lambda p: resume(p, self.big), one_answer, self.runs)
        if name == "resume-small-again":
            return paired(resumed_again(self.small), one_answer, self.runs)
        if name == "resume-big-again":
            return paired(resumed_again(self.big), one_answer, self.runs)
        if name == "fork-big":
            return paired(lambda p: fork(p, self.big), rpc_idle, self.runs)
        raise KeyError(name)

    def extra_ms(self, name: str, per: int = 1) -> float:
        cases, bases = self.group(name)
        return (_median([m.wall_ms for m in cases]) - _median([m.wall_ms for m in bases])) / per


def cases(smoke: bool) -> list[tuple[str, Callable[[], float], str, float | None]]:
    rows = Rows(runs=2 if smoke else 7, sizes=(1_000, 10_000) if smoke else (10_000, 100_000))
    small, big = f"{rows.small // 1000}k", f"{rows.big // 1000}k"
    return [
        (
            "process: tau -p one delta, CPU",
            lambda: _median([m.cpu_ms for m in rows.group("read")[1]]),
            "ms",
            120.0,
        ),
        (
            "process: tau -p read-then-answer, wall",
            lambda: _median([m.wall_ms for m in rows.group("read")[0]]),
            "ms",
            250.0,
        ),
        (
            "process: tau -p read-then-answer, peak RSS",
            lambda: max(m.peak_mib for m in rows.group("read")[0]),
            "MiB",
            60.0,
        ),
        ("process: extra wall per tool turn (90 reads)", lambda: rows.extra_ms("turns", 90), "ms", 3.0),
        (
            f"process: resume {small} entries + prompt, extra wall",
            lambda: rows.extra_ms("resume-small"),
            "ms",
            50.0,
        ),
        (
            f"process: resume {big} entries + prompt, extra wall",
            lambda: rows.extra_ms("resume-big"),
            "ms",
            500.0,
        ),
        (
            f"process: resume {big} entries + prompt, peak RSS",
            lambda: max(m.peak_mib for m in rows.group("resume-big")[0]),
            "MiB",
            150.0,
        ),
        (
            f"process: resume {small} entries again (checkpoint beside it) + prompt, extra wall",
            lambda: rows.extra_ms("resume-small-again"),
            "ms",
            50.0,
        ),
        (
            f"process: resume {big} entries again (checkpoint beside it) + prompt, extra wall",
            lambda: rows.extra_ms("resume-big-again"),
            "ms",
            500.0,
        ),
        (
            f"process: resume {big} entries again + prompt, peak RSS",
            lambda: max(m.peak_mib for m in rows.group("resume-big-again")[0]),
            "MiB",
            150.0,
        ),
        (f"process: fork {big} entries (rpc), extra wall", lambda: rows.extra_ms("fork-big"), "ms", 500.0),
        (
            f"process: fork {big} entries (rpc), peak RSS",
            lambda: max(m.peak_mib for m in rows.group("fork-big")[0]),
            "MiB",
            150.0,
        ),
    ]


def _spread(values: list[float]) -> str:
    return f"min {min(values):8.1f}  median {_median(values):8.1f}  max {max(values):8.1f}"


def main(argv: list[str]) -> int:
    """``python -m bench.bench_process [RUNS] [GROUP...]``: every run's range per group."""
    runs = int(argv[0]) if argv else 5
    groups = argv[1:] or [
        "read",
        "turns",
        "resume-small",
        "resume-big",
        "resume-small-again",
        "resume-big-again",
        "fork-big",
    ]
    rows = Rows(runs, (10_000, 100_000))
    print("load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    for name in groups:
        cases_, bases = rows.group(name)
        for label, measured in (("case", cases_), ("base", bases)):
            print(f"{name:13} {label} wall  {_spread([m.wall_ms for m in measured])}")
            print(f"{name:13} {label} cpu   {_spread([m.cpu_ms for m in measured])}")
            print(f"{name:13} {label} rss   {_spread([m.peak_mib for m in measured])}")
        per = 90 if name == "turns" else 1
        quiet = (min(m.wall_ms for m in cases_) - min(m.wall_ms for m in bases)) / per
        print(f"{name:13} extra wall: median {rows.extra_ms(name, per):.2f} ms, quiet minimum {quiet:.2f} ms")
        print("load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
