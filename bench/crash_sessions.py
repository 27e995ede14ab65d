"""Crash test: a writer appending to one session is killed with SIGKILL at random moments.

    python bench/crash_sessions.py --runs 500

Each run starts a writer process that opens the session (a new one every 25 runs) (repairing whatever the last kill
left) and appends numbered messages as fast as it can, then kills it after a random delay.
After every kill the file must open, and its messages must be exactly 0, 1, 2, ... each
hanging under the one before: nothing lost but, at most, the entry being written. Exits 1
with the reason on the first failure.
"""

from __future__ import annotations

import argparse
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tau_agent.messages import UserMessage
from tau_agent.session.entries import MessageEntry
from tau_agent.session.jsonl import JsonlSessionStorage

RUNS_PER_FILE = 25

WRITER = """
import sys
from pathlib import Path
from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog

path = Path(sys.argv[1])
if path.exists():
    log = SessionLog(JsonlSessionStorage.open(path, fsync="never"))
else:
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/crash"), fsync="never"))
    log.append_message(AssistantMessage([TextContent("0")]))
i = len(log.entries)
print("ready", flush=True)
while True:
    log.append_message(UserMessage(str(i) + " " + "x" * (i * 7919 % 3000)))
    i += 1
"""


def check(path: Path) -> tuple[int, list[str]]:
    """Open like a resume would (writable, so the next run repairs); returns (entries, warnings)."""
    with JsonlSessionStorage.open(path, read_only=True) as storage:
        entries = list(storage.entries)
        warnings = list(storage.warnings)
    previous: str | None = None
    for number, entry in enumerate(entries):
        if not isinstance(entry, MessageEntry):
            raise AssertionError(f"entry {number} is a {entry.type}")
        message = entry.message
        text = message.content if isinstance(message, UserMessage) else "0"
        assert isinstance(text, str)
        if int(text.split(" ")[0]) != number or entry.parent_id != previous:
            raise AssertionError(f"entry {number} out of order: {text[:20]!r} under {entry.parent_id}")
        previous = entry.id
    return len(entries), warnings


def crash_runs(runs: int, max_delay: float = 0.05, seed: int | None = None) -> dict[str, int]:
    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="tau-crash-"))
    try:
        return _runs(runs, rng, max_delay, folder)
    finally:
        shutil.rmtree(folder)


def _runs(runs: int, rng: random.Random, max_delay: float, folder: Path) -> dict[str, int]:
    torn = 0
    count = total = 0
    path = folder / "session-0.jsonl"
    for run in range(runs):
        if run and run % RUNS_PER_FILE == 0:  # keep files small enough that a run stays quick
            total += count
            count = 0
            path = folder / f"session-{run}.jsonl"
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert writer.stdout is not None
        if writer.stdout.readline().strip() != "ready":
            raise AssertionError("the writer could not open the session")
        time.sleep(rng.uniform(0, max_delay))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
        now, warnings = check(path)
        if now < count:
            raise AssertionError(f"entries went from {count} to {now}")
        count = now
        torn += any("incomplete" in w for w in warnings)
    return {"runs": runs, "entries": total + count, "torn_tails_repaired": torn}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    try:
        result = crash_runs(args.runs, seed=args.seed)
    except AssertionError as exc:
        print(f"FAILED: {exc}")
        return 1
    print(", ".join(f"{k}={v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
