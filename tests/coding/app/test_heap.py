"""The CLI's heap hygiene: a per-turn trim and a fixed mmap threshold (glibc only)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tau_agent.events import TurnEndEvent, TurnStartEvent
from tau_agent.messages import AssistantMessage
from tau_coding.app.heap import fix_mmap_threshold, trim_after_turns

glibc_only = pytest.mark.skipif(
    sys.platform != "linux" or not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"),
    reason="glibc's allocator only",
)


def test_the_listener_releases_memory_as_each_turn_starts_and_at_no_other_event() -> None:
    calls: list[str] = []
    listener = trim_after_turns(lambda: calls.append("release"))
    listener(TurnStartEvent())
    listener(TurnEndEvent(AssistantMessage(api="a", provider="p", model="m")))
    listener(TurnStartEvent())
    assert calls == ["release", "release"]


_CHILD = """
import sys
from tau_coding.app.heap import fix_mmap_threshold, release_free_memory

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

if sys.argv[1] == "fixed":
    assert fix_mmap_threshold()
# Freeing a large (mmapped) block raises glibc's dynamic mmap threshold past it, so the next
# blocks up to that size come from the heap, and stay resident once freed below live data.
before = rss()
keep = []
for size in range(200_000, 4_000_000, 100_000):
    big = b"x" * size
    del big
    block = b"x" * (size // 2)  # written, so its pages are resident
    keep.append(bytearray(600))  # a small live object after the block pins the heap's top
    del block
if sys.argv[2] == "trim":
    release_free_memory()
print(rss() - before)
"""


@glibc_only
def test_a_fixed_mmap_threshold_keeps_freed_large_blocks_out_of_resident_memory() -> None:
    assert _growth("fixed", "keep") < 1024  # KiB: the large blocks were unmapped when freed
    assert _growth("dynamic", "keep") > 1536  # without: they linger in the heap


@glibc_only
def test_a_release_gives_free_heap_pages_back() -> None:
    assert _growth("dynamic", "trim") < 1024


def _growth(threshold: str, release: str) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, threshold, release],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return int(out.stdout)


@glibc_only
def test_the_threshold_is_left_to_the_environment_when_it_sets_one(monkeypatch: pytest.MonkeyPatch) -> None:
    fix_mmap_threshold.cache_clear()
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "131072")
    try:
        assert fix_mmap_threshold() is False
    finally:
        fix_mmap_threshold.cache_clear()
