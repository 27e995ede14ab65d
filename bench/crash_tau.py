"""Crash trials: the real ``tau -p`` is killed with SIGKILL at random moments of a real run.

    python bench/crash_tau.py --trials 200 [--seed N]

Each trial runs ``tau -p`` against a local model that reads config.py turn after turn, waits
until the model has seen a random number of requests (1-25), sleeps a random few milliseconds
and kills the process. The session file left behind must then follow the format's rules, open
in Tau's reader, and hold every message that the run had finished before the kill: when request
k reached the model, replies 1..k-1 and their tool results were already on disk (Tau writes a
message before it goes on), so at most the entry being written is lost. Only the last turn may
miss its tool result. Exits 1 with the reasons when a trial fails.
"""

from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.session_rules import branch_messages, format_problems, read_entries, transcript_problems
from bench.tau_project import TauProject, body, read_call
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted

API = "openai-completions"


def trial(rng: random.Random, folder: Path) -> list[str]:
    """One killed run; the problems of the session it left (empty: none)."""

    def respond(request: RecordedRequest, index: int) -> Scripted:
        return Scripted(body=body(API, read_call(index + 1)))

    target = rng.randint(1, 25)
    with ReplayServerThread(respond) as server:
        project = TauProject.create(folder, API, server.url)
        process = subprocess.Popen(
            project.argv("-p", "Read config.py until I stop you."),
            cwd=project.root,
            env=project.env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while len(server.requests) < target and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.015))
        process.send_signal(signal.SIGKILL)
        _, err = process.communicate()
        seen = len(server.requests)
    if process.returncode != -signal.SIGKILL:
        return [f"tau ended by itself (exit {process.returncode}) before the kill: {err.decode()[-200:]}"]
    files = project.session_files()
    if not files:
        return [] if seen <= 1 else [f"no session file after {seen} requests"]
    return [f"{f.name}: {p}" for f in files for p in killed_session_problems(f, seen)]


def killed_session_problems(path: Path, requests_seen: int) -> list[str]:
    """The problems of a session whose writer was killed after ``requests_seen`` requests."""
    problems = format_problems(path)
    try:
        with JsonlSessionStorage.open(path, read_only=True) as storage:
            problems += [f"Tau's reader: {w}" for w in storage.warnings if "incomplete" not in w]
    except Exception as exc:  # any refusal is a finding
        problems.append(f"Tau's reader refused the file: {exc!r}")
    objects, _, _ = read_entries(path)
    messages = branch_messages(objects[1:])
    replies = [m for m in messages if m.get("role") == "assistant"]
    results = [m for m in messages if m.get("role") == "toolResult"]
    if len(replies) < requests_seen - 1 or len(results) < requests_seen - 1:
        problems.append(
            f"{requests_seen} requests were made but only {len(replies)} replies and "
            f"{len(results)} tool results are on disk"
        )
    last_turn = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=0)
    problems += transcript_problems(messages[:last_turn])
    problems += [p for p in transcript_problems(messages) if "has no result" not in p]
    return problems


def trials(count: int, seed: int | None = None) -> list[str]:
    rng = random.Random(seed)
    failures = []
    for number in range(count):
        with tempfile.TemporaryDirectory(prefix="tau-crash-") as tmp:
            failures += [f"trial {number + 1}: {p}" for p in trial(rng, Path(tmp))]
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    start = time.perf_counter()
    failures = trials(args.trials, args.seed)
    for failure in failures:
        print(failure)
    verdict = "FAILED" if failures else "ok"
    print(f"{verdict}: {args.trials} trials in {time.perf_counter() - start:.0f}s, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
