"""Inline mode's two candidate renderers, per frame of a streaming answer (docs/tui.md).

Textual's inline driver redraws the whole live region each frame (``Compositor.render_inline``
then every strip written); a differential renderer of our own on Rich would write only the rows
that changed since the previous frame. Both have to render the answer's Markdown, so this
measures what differs: turning the region into terminal output, in CPU ms and bytes per frame.
The region is the real app's (inline, 120x40, headless) while a reply streams; the differential
side diffs the same rows, so both draw identical content.

    .venv/bin/python -m bench.tui_inline_renderers [--frames 200]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.coding.tui.harness_port import HarnessSessionAdapter
from textual.strip import Strip

from tau_agent.harness import AgentHarness
from tau_agent.provider import Context, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent
from tau_agent.testing import FakeProvider, reply, text
from tau_coding.tui.shell.app import TauApp

SIZE = (120, 40)


class PacedProvider:
    """FakeProvider's reply, one event every ``pause`` seconds (a model streaming in real time)."""

    def __init__(self, inner: FakeProvider, pause: float) -> None:
        self.inner = inner
        self.pause = pause

    api = property(lambda self: self.inner.api)
    provider = property(lambda self: self.inner.provider)
    model = property(lambda self: self.inner.model)

    async def stream(self, context: Context, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]:
        async for event in self.inner.stream(context, options):
            yield event
            await asyncio.sleep(self.pause)


async def measure(frames: int) -> dict[str, float]:
    words = " ".join(f"word{i}" + ("\n\n" if i % 12 == 11 else "") for i in range(frames * 4))
    provider = PacedProvider(FakeProvider([reply(text(words, chunk_size=24))]), 0.005)
    port = HarnessSessionAdapter(AgentHarness(provider), cwd=".")
    app = TauApp(port, list_files=None, inline=True, write_above=lambda _text: None)
    full_ms: list[float] = []
    full_bytes: list[int] = []
    diff_ms: list[float] = []
    diff_bytes: list[int] = []
    async with app.run_test(size=SIZE) as pilot:
        app.send("stream")
        previous: list[str] = []
        while app.state.status != "idle" and len(full_ms) < frames:
            await pilot.pause(0.03)
            screen = app.screen
            height = min(SIZE[1], screen._get_inline_height(app.size))
            start = time.process_time()
            update = screen._compositor.render_inline(app.size.with_height(height))
            output = update.render_segments(app.console)  # type: ignore[attr-defined]
            full_ms.append((time.process_time() - start) * 1000)
            full_bytes.append(len(output.encode()))
            # Fresh strips: a Strip caches what it rendered, and the full side rendered these.
            strips = [Strip(list(strip), strip.cell_length) for strip in update.strips]  # type: ignore[attr-defined]
            start = time.process_time()
            rows = [strip.render(app.console) for strip in strips]
            changed = [
                f"\x1b[{y + 1};1H{row}"
                for y, row in enumerate(rows)
                if y >= len(previous) or previous[y] != row
            ]
            written = "".join(changed)
            diff_ms.append((time.process_time() - start) * 1000)
            diff_bytes.append(len(written.encode()))
            previous = rows
    return {
        "frames": len(full_ms),
        "full_ms": statistics.median(full_ms),
        "full_bytes": statistics.median(full_bytes),
        "diff_ms": statistics.median(diff_ms),
        "diff_bytes": statistics.median(diff_bytes),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200)
    args = parser.parse_args()
    found = asyncio.run(measure(args.frames))
    print(
        f"{found['frames']:.0f} frames of a streaming reply, region {SIZE[0]} columns:\n"
        f"  Textual inline (whole region): {found['full_ms']:.2f} ms, {found['full_bytes']:.0f} bytes per frame\n"
        f"  differential (changed rows):   {found['diff_ms']:.2f} ms, {found['diff_bytes']:.0f} bytes per frame"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
