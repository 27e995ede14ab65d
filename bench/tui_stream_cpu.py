"""CPU the TUI takes to show an answer streaming at 200 tokens/s, in process (headless).

The app runs headless (no terminal writes; everything else: reducer, Markdown, layout,
compositor) while a paced fake provider streams a word every 5 ms; the process's CPU time over
5 s of streaming is reported as % of one core. Three answers: prose in paragraphs (a line break
every 15 words, a blank line every 60), one long paragraph, and markdown of every kind
(``bench/markdown_answer.py``: headings, lists, code blocks, tables); inline and full-screen.
``KIND...`` picks some of them.
``bench/tui_tmux_latency.py`` measures the real process in tmux; this one is steadier.

    .venv/bin/python -m bench.tui_stream_cpu [paragraphs] ["one paragraph"] [markdown]
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.coding.tui.harness_port import HarnessSessionAdapter

from bench.markdown_answer import markdown_answer
from bench.tui_inline_renderers import PacedProvider
from tau_agent.harness import AgentHarness
from tau_agent.testing import FakeProvider, reply, text
from tau_coding.tui.shell.app import TauApp

WORDS = 3000


def answer(kind: str) -> str:
    if kind == "markdown":
        return markdown_answer()
    if kind == "one paragraph":
        return "".join(f"word{i} " for i in range(WORDS))
    return "".join(
        f"word{i}" + ("\n\n" if i % 60 == 59 else "\n" if i % 15 == 14 else " ") for i in range(WORDS)
    )


async def cpu_percent(kind: str, inline: bool, seconds: float = 5.0) -> float:
    provider = PacedProvider(FakeProvider([reply(text(answer(kind), chunk_size=7))]), 0.005)
    port = HarnessSessionAdapter(AgentHarness(provider), cwd=".")
    app = TauApp(port, list_files=None, inline=inline, write_above=(lambda _text: None) if inline else None)
    async with app.run_test(size=(120, 40)):
        app.send("go")
        await asyncio.sleep(1.0)
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        return (time.process_time() - cpu) / (time.perf_counter() - wall) * 100


KINDS = ("paragraphs", "one paragraph", "markdown")


def main() -> int:
    for kind in sys.argv[1:] or KINDS:
        for inline in (True, False):
            found = asyncio.run(cpu_percent(kind, inline))
            print(
                f"{kind:<13} {'inline' if inline else 'full-screen':<11} {found:5.1f} % of one core",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
