"""What starting a subagent costs before its first model request.

Target (issue 24): starting a child adds at most 20 ms over its first model request. Measured
from the ``task`` tool's ``execute`` being called to the child's provider being asked for its
first reply, through the real pieces: agent definitions read from disk, the child's coding
tools made, the session's system prompt built from a project's resources (AGENTS.md, skills).
Reported as the quietest of several runs, wall time and CPU time (the machine is shared), for
a child sharing the parent's model (its provider is reused) and, setup only, for a child on
another model (a new HTTP provider is made).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.provider import Context, StreamOptions
from tau_agent.testing.fake_provider import FakeReply, FunctionProvider, reply
from tau_agent.tools import AgentTool
from tau_ai.model import Model
from tau_coding.config.paths import TauPaths
from tau_coding.extensions.http_provider import http_provider
from tau_coding.resources.loader import load_resources
from tau_coding.subagents.definitions import AgentDefinition
from tau_coding.subagents.discovery import agent_dirs, load_agents
from tau_coding.subagents.factory import ChildFactory, Parent
from tau_coding.subagents.limits import SubagentLimits
from tau_coding.subagents.task_tool import create_task_tool
from tau_coding.tools.config import ToolSettings

Case = tuple[str, Any, str, float | None]
MODEL = Model("bench-model", "openai-completions", "bench", "http://127.0.0.1:9")
OTHER = Model("other-model", "openai-completions", "bench", "http://127.0.0.1:9")


def _project(root: Path) -> TauPaths:
    home = root / "home"
    (home / ".tau" / "agents").mkdir(parents=True)
    (home / ".tau" / "agents" / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews\ntools: Read, Grep\n---\nReview the code.\n"
    )
    project = root / "project"
    project.mkdir()
    (project / "AGENTS.md").write_text("# Project\n\nRun the tests with pytest.\n" * 20)
    return TauPaths(home=home, tau_home=home / ".tau", cwd=project)


def _factory(paths: TauPaths, provider: FunctionProvider) -> ChildFactory:
    resources = load_resources(paths.cwd, paths.tau_home, paths.home)
    return ChildFactory(
        paths.cwd,
        ToolSettings(),
        SubagentLimits(),
        lambda: [MODEL, OTHER],
        lambda m: http_provider(m, "bench-key"),
        lambda tools: resources.system_prompt(tools, date(2026, 1, 1)),
        lambda: Parent(MODEL, provider, "off"),
    )


async def _execute(tool: AgentTool, call_id: str, args: dict[str, Any]) -> None:
    await tool.execute(call_id, args, CancellationToken(), lambda _: None)


def start_to_first_request_ms(runs: int) -> tuple[float, float, float]:
    """(wall ms, CPU ms) from ``execute`` to the child's first provider call, quietest run, and
    the wall ms of the process's first child (which imports the search tools' modules)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = _project(Path(tmp))
        asked: list[tuple[float, float]] = []

        def answer(context: Context, options: StreamOptions) -> FakeReply:
            asked.append((time.perf_counter(), time.process_time()))
            return reply("done")

        provider = FunctionProvider(answer)
        factory = _factory(paths, provider)
        dirs = agent_dirs(paths, project_trusted=True)
        agents = load_agents(dirs, print)
        tool = create_task_tool(
            factory.spawner(lambda: load_agents(dirs, print), lambda data: None), 0, description_agents=agents
        )
        walls, cpus = [], []
        for n in range(runs + 1):
            wall, cpu = time.perf_counter(), time.process_time()
            args = {"description": "bench", "prompt": f"look {n}", "agent": "reviewer"}
            asyncio.run(_execute(tool, f"c{n}", args))
            walls.append((asked[-1][0] - wall) * 1000)
            cpus.append((asked[-1][1] - cpu) * 1000)
        # The first run imports the search tools' modules; every later child finds them loaded.
        return min(walls[1:]), min(cpus[1:]), walls[0]


def setup_with_new_provider_ms(runs: int) -> float:
    """CPU ms to set up a child on another model (its own HTTP provider), quietest run."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = _project(Path(tmp))
        factory = _factory(paths, FunctionProvider(lambda c, o: reply("x")))
        other = AgentDefinition("other", "", "Do it.", model="bench/other-model")
        times = []
        for _ in range(runs + 1):
            cpu = time.process_time()
            factory.setup(other, 1, dict, lambda data: None)
            times.append((time.process_time() - cpu) * 1000)
        return min(times[1:])


def keystroke_with_children_ms(children: int = 8, keys: int = 40) -> float:
    """Milliseconds from a key event to the editor holding it and the screen repainted, while
    ``children`` subagents stream their replies in the same process (headless TUI)."""
    from tests.coding.tui.harness_port import HarnessSessionAdapter
    from textual import events

    from tau_agent.harness import AgentHarness
    from tau_agent.testing.fake_provider import call, text
    from tau_coding.tui.bridge import start_run
    from tau_coding.tui.shell.app import TauApp

    streaming = 0

    def answer(context: Context, options: StreamOptions) -> FakeReply:
        nonlocal streaming
        if "You run as a subagent" in context.system_prompt:
            streaming += 1
            return reply(*[text(f"word {i} ") for i in range(400)], delay=0.005)
        if context.messages[-1].role == "toolResult":
            return reply("All children reported.")
        tasks = [
            call("task", {"description": f"part {n}", "prompt": f"Survey part {n}"}) for n in range(children)
        ]
        return reply(*tasks)

    async def run() -> float:
        with tempfile.TemporaryDirectory() as tmp:
            paths = _project(Path(tmp))
            provider = FunctionProvider(answer)
            factory = _factory(paths, provider)
            agents = load_agents([], print)
            limits = SubagentLimits(max_parallel=children)
            factory = ChildFactory(
                factory.cwd,
                factory.tool_settings,
                limits,
                factory.models,
                factory.provider_for,
                factory.system_prompt,
                factory.parent,
            )
            task = create_task_tool(
                factory.spawner(lambda: agents, lambda data: None), 0, description_agents=agents
            )
            harness = AgentHarness(provider, tools=[task])
            app = TauApp(HarnessSessionAdapter(harness, cwd=paths.cwd), list_files=None)
            async with app.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                start_run(app._inbox, app.port, "Survey everything")
                while streaming < children:
                    await asyncio.sleep(0.01)
                total = 0.0
                for i in range(keys):
                    start = time.perf_counter()
                    app.post_message(events.Key("x", "x"))
                    while len(app.editor.text) <= i:
                        await asyncio.sleep(0)
                    app.screen._refresh_layout()
                    total += time.perf_counter() - start
                    await asyncio.sleep(0.01)  # keys come at typing speed, children stream between them
                harness.cancel()
                while harness.is_running:
                    await asyncio.sleep(0.01)
                return total / keys * 1000

    return asyncio.run(run())


def cases(smoke: bool) -> list[Case]:
    runs = 3 if smoke else 20
    measured: list[tuple[float, float, float]] = []

    def part(index: int) -> float:
        if not measured:
            measured.append(start_to_first_request_ms(runs))
        return measured[0][index]

    return [
        ("subagents: child start to first request (wall)", lambda: part(0), "ms", 20.0),
        ("subagents: child start to first request (CPU)", lambda: part(1), "ms", 20.0),
        ("subagents: first child of a process, tool imports included (wall)", lambda: part(2), "ms", None),
        (
            "subagents: child setup with its own HTTP provider (CPU)",
            lambda: setup_with_new_provider_ms(runs),
            "ms",
            None,
        ),
        (
            "subagents: TUI keystroke while 8 children stream",
            lambda: keystroke_with_children_ms(8, 10 if smoke else 40),
            "ms/key",
            16.0,
        ),
    ]


if __name__ == "__main__":
    print(json.dumps({name: fn() for name, fn, _, _ in cases(smoke=False)}, indent=2))
