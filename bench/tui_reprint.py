"""Inline mode's reprint (docs/tui.md): how long writing a 1,000-item conversation into a cleared
scrollback takes, and how long it keeps the event loop (and so the keys) waiting at most.

Ctrl+O, Ctrl+T, a theme change and a resize render every item written so far again
(``ScrollbackFeed.reprint``), a slice at a time between turns of the event loop. A probe task
that asks to wake every millisecond measures the longest wait a key would see meanwhile.

    .venv/bin/python -m bench.tui_reprint [--items 1000] [--width 120] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage
from tau_coding.tui.items import AssistantItem, Item, ToolItem, UserItem
from tau_coding.tui.shell.inline import Look, ScrollbackFeed
from tau_coding.tui.shell.scrollback import Palette

ANSWER = """The failing test is `test_sub`: `add` subtracted.

1. `calc.py` now returns `a + b`.
2. The suite passes:

```python
def add(a, b):
    return a + b
```

Anything else?"""


def conversation(count: int) -> list[Item]:
    """``count`` items: prompts, Markdown answers and tool rows with 30-line outputs, in turn."""
    items: list[Item] = []
    while len(items) < count:
        n = len(items)
        items.append(UserItem(f"Question {n}: why does the test fail?"))
        output = "".join(f"line {i}: some output of the tool\n" for i in range(30))
        items.append(ToolItem(f"c{n}", "bash", {"command": "pytest -q"}, "ok", 0.0, 0.4, output))
        items.append(AssistantItem(AssistantMessage([TextContent(ANSWER)]), done=True))
    return items[:count]


async def measure(count: int, width: int, look: Look) -> tuple[float, float, float, float, int]:
    """(wall s, CPU s, longest event-loop wait ms, longest CPU between two turns ms, bytes written)
    of one reprint. On a loaded machine the wait includes other processes' turns; the CPU does not."""
    items = conversation(count)
    written: list[str] = []
    feed = ScrollbackFeed(written.append)
    feed.feed(items, Look(width, Palette(), "truecolor"))
    longest = longest_cpu = 0.0
    done = False

    async def probe() -> None:
        nonlocal longest, longest_cpu
        while not done:
            before, before_cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(0.001)
            longest = max(longest, time.perf_counter() - before - 0.001)
            longest_cpu = max(longest_cpu, time.thread_time() - before_cpu)

    prober = asyncio.ensure_future(probe())
    await asyncio.sleep(0.01)
    wall, cpu = time.perf_counter(), time.process_time()
    await feed.reprint(items, look)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    done = True
    await prober
    return wall, cpu, longest * 1000, longest_cpu * 1000, len(written[-1].encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--width", type=int, default=120)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    cases = {
        "Ctrl+O (expand)": Look(args.width, Palette(), "truecolor", expand_tools=True),
        "theme": Look(args.width, Palette(primary="green", surface="grey11"), "truecolor"),
        "resize": Look(args.width - 30, Palette(), "truecolor"),
    }
    for name, look in cases.items():
        runs = [asyncio.run(measure(args.items, args.width, look)) for _ in range(args.runs)]
        wall, cpu, stall, stall_cpu, size = min(runs, key=lambda run: run[1])  # the quietest run
        print(
            f"{name:16} {args.items} items: {cpu * 1000:5.0f} ms CPU, {wall * 1000:5.0f} ms wall; "
            f"the event loop busy at most {stall_cpu:4.1f} ms CPU at a time, waited at most "
            f"{stall:5.1f} ms; {size / 1000:.0f} kB written"
        )


if __name__ == "__main__":
    main()
