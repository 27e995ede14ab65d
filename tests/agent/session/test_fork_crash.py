"""A fork of a long session is written whole or not at all: killed at any moment, or failing
to write part way (a full disk), it leaves no partial session where the fork goes, and its
source as it was. Real processes, real files."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.session.reader import read_session

ENTRIES = 20_000

FORK = textwrap.dedent(
    """
    import resource, signal, sys
    from pathlib import Path
    from tau_agent.session.entries import SessionHeader
    from tau_agent.session.jsonl import JsonlSessionStorage
    from tau_agent.session.log import SessionLog

    source, target, limit = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    log = SessionLog(JsonlSessionStorage.open(source))
    branch = log.branch(log.entries[-2].id)
    if limit:  # a disk that fills up part way through the copy
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    print("ready", flush=True)
    try:
        JsonlSessionStorage.create_from(target, SessionHeader.new("/p"), branch.entries, source=log.storage)
    except OSError as error:
        print("failed", error.errno, flush=True)
    else:
        print("done", flush=True)
    """
)


def long_session(path: Path) -> None:
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="never"))
    for i in range(ENTRIES // 2):
        log.append_message(UserMessage(f"question {i} " + "x" * 200))
        log.append_message(
            AssistantMessage([TextContent(f"answer {i} " + "y" * 200)], provider="p", model="m")
        )
    log.close()


def forking(source: Path, target: Path, limit: int = 0) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", FORK, str(source), str(target), str(limit)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    return process


def fork_is_whole_or_absent(target: Path) -> bool:
    """True if the fork is there (then complete), False if it is not."""
    if not target.exists():
        return False
    loaded = read_session(target.read_bytes(), target.name)
    assert not loaded.warnings and len(loaded.entries) == ENTRIES - 1
    return True


def test_a_fork_killed_at_any_moment_leaves_the_whole_fork_or_none(tmp_path: Path) -> None:
    source = tmp_path / "source.jsonl"
    long_session(source)
    before = source.read_bytes()
    rng = random.Random(17)
    for run in range(12):
        target = tmp_path / f"fork-{run}.jsonl"
        process = forking(source, target)
        time.sleep(rng.uniform(0, 0.06))
        process.send_signal(signal.SIGKILL)
        process.communicate()
        fork_is_whole_or_absent(target)
        assert source.read_bytes() == before
    process = forking(source, tmp_path / "fork-last.jsonl")  # and one left to finish
    assert process.communicate()[0] == "done\n" and fork_is_whole_or_absent(tmp_path / "fork-last.jsonl")


def test_a_fork_whose_disk_fills_part_way_leaves_nothing_behind(tmp_path: Path) -> None:
    source = tmp_path / "source.jsonl"
    long_session(source)
    target = tmp_path / "fork.jsonl"
    process = forking(source, target, limit=len(source.read_bytes()) // 2)
    out, _ = process.communicate()
    assert process.returncode == 0 and out.startswith("failed 27")  # EFBIG, after half the copy
    assert sorted(p.name for p in tmp_path.iterdir()) == ["source.jsonl"]
