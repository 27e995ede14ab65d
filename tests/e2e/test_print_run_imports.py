"""The fixed cost of a run: what a one-answer ``tau -p`` imports, and what it compiles.

Every module imported is paid by every run (docs/performance.md), so these fail when an eager
import brings back a part a plain answer does not use, or when dataclass methods or
module-level regular expressions are compiled again on a run after the first.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

# Parts a one-answer print run has no use for: other frontends, optional integrations, the
# HTTP stacks Tau's own client replaced, and what only a tool call, a subagent or a plan loads.
NOT_FOR_A_PLAIN_ANSWER = (
    "httpx",
    "httpcore",
    "h11",
    "http.client",
    "urllib.request",
    "email",
    "textual",
    "rich",
    "pydantic",
    "mcp",
    "botocore",
    "opentelemetry",
    "tau_coding.tui",
    "tau_coding.modes.interactive",
    "tau_coding.modes.rpc",
    "tau_coding.extensions.host",
    "tau_coding.packages",
    "tau_coding.batch",
    "tau_coding.tracing.setup",
    "tau_coding.session.store.export",
    "tau_coding.subagents.child",
    "tau_coding.subagents.transcript",
    "tau_coding.todo.plan",
    "tau_coding.checkpoints.retention",
    "tau_coding.extensions.approval_dialog",
    "difflib",  # the edit tool's matcher and diff, a mistyped model's suggestions
    "tau_coding.tools.diff",
    "tau_coding.tools.edit_match",
    "tau_coding.tools.images",  # the read tool's image path
)

# Runs the real command in this interpreter, then reports what it imported and what the
# dataclass code table (common/dataclass_code.py) had to compile: from an atexit hook, which
# runs whether the command returns or ends the process itself (common/quick_exit.py).
PROBE = """
import atexit, dataclasses, gc, json, runpy, sys
def report():
    table = getattr(dataclasses.exec, "__self__", None)
    sys.stderr.write("PROBE " + json.dumps({
        "modules": sorted(sys.modules),
        "misses": table.misses if table else None, "hits": table.hits if table else None,
        "collector": [gc.isenabled(), gc.get_freeze_count()],
        "patterns": sum(type(key) is tuple and key[0] == "re" for key in table.used) if table else None,
    }) + "\\n")
atexit.register(report)
sys.argv = ["tau", *sys.argv[1:]]
runpy.run_module("tau_coding", run_name="__main__")
"""


async def _probe_run(project: Project) -> dict[str, object]:
    env = project.env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a user's machine: the table is kept
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        PROBE,
        "-p",
        "--model",
        MODEL,
        "Which port?",
        cwd=project.root,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    lines = [line for line in err.decode().splitlines() if line.startswith("PROBE ")]
    assert lines, err.decode()
    report: dict[str, object] = json.loads(lines[-1].removeprefix("PROBE "))
    assert process.returncode == 0, err.decode()
    assert out.decode() == "The port is 9090.\n"
    return report


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", "openai-completions")


async def test_a_plain_answer_imports_none_of_the_parts_it_does_not_use(project: Project) -> None:
    async with server(project.api, [ScriptedReply(text="The port is 9090.")]) as srv:
        project.configure(srv.url)
        report = await _probe_run(project)
    modules = report["modules"]
    assert isinstance(modules, list)
    loaded = [
        name
        for name in NOT_FOR_A_PLAIN_ANSWER
        if name in modules or any(m.startswith(name + ".") for m in modules)
    ]
    assert loaded == []
    # the collector was off during start-up and is on for the run, start-up's objects frozen
    # (common/collector.py)
    collector = report["collector"]
    assert isinstance(collector, list)
    enabled, frozen = collector
    assert enabled is True and frozen > 20_000  # some 56,000 at the time of writing


async def test_a_later_run_compiles_no_dataclass_method_or_module_level_pattern(project: Project) -> None:
    # Three runs: the second is the first to find a checkpoint store, so its start prunes old
    # checkpoints (once a day, in a thread that loads its own module); the third does what the
    # first did.
    replies = [ScriptedReply(text="The port is 9090.")] * 3
    async with server(project.api, replies) as srv:
        project.configure(srv.url)
        first = await _probe_run(project)
        await _probe_run(project)
        third = await _probe_run(project)
    assert isinstance(first["misses"], int) and first["misses"] > 100  # some hundred classes' methods
    assert third["misses"] == 0
    # module-level regular expressions come from the same table (common/regex_code.py)
    assert isinstance(third["patterns"], int) and third["patterns"] > 20
    assert isinstance(first["hits"], int) and third["hits"] == first["misses"] + first["hits"]
    assert list((project.tau_home / "cache").iterdir())  # under TAU_HOME, as the docs say
