"""The bash tool inside a real bubblewrap sandbox: what a confined command can and cannot do.

Skipped, with the reason, where bwrap is missing or cannot start (no user namespaces).
The temp dir of these policies is a folder of the test, so a path elsewhere under the test's
own temp dir counts as "outside".
"""

from __future__ import annotations

import asyncio
import dataclasses
import shlex
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tau_agent.tools import AgentTool
from tau_coding.sandbox import launch
from tau_coding.sandbox.policy import SandboxPolicy, sandbox_policy
from tau_coding.sandbox.probe import sandbox_availability
from tau_coding.tools import create_coding_tools
from tau_coding.tools.bash import DISABLE_FLAG

from .conftest import call

_found = sandbox_availability(platform="linux")
pytestmark = pytest.mark.skipif(_found.kind != "bwrap", reason=f"bubblewrap cannot run here: {_found.reason}")


class Dirs:
    def __init__(self, root: Path) -> None:
        self.project = root / "project"
        self.temp = root / "tmp"
        self.outside = root / "outside"
        self.home = root / "home"
        for path in (self.project, self.temp, self.outside, self.home):
            path.mkdir()


@pytest.fixture
def dirs(tmp_path: Path) -> Dirs:
    return Dirs(tmp_path)


def _policy(dirs: Dirs, **settings: object) -> SandboxPolicy:
    values = {"sandbox.enabled": True, **{f"sandbox.{k}": v for k, v in settings.items()}}
    policy = sandbox_policy(
        lambda key, default=None: values.get(key, default),
        dirs.project,
        home=dirs.home,
        tau_home=dirs.home / ".tau",
        temp=[dirs.temp.resolve()],
    )
    assert policy is not None
    return policy


def _bash(dirs: Dirs, policy: SandboxPolicy | None) -> AgentTool:
    return create_coding_tools(dirs.project, names=["bash"], sandbox=policy)["bash"]


async def test_writes_inside_the_project_and_temp_but_not_outside(dirs: Dirs) -> None:
    bash = _bash(dirs, _policy(dirs))
    out = await call(
        bash, command=f"echo in > in.txt && echo t > {dirs.temp}/t.txt && echo x > {dirs.outside}/x"
    )
    assert (dirs.project / "in.txt").read_text() == "in\n" and (dirs.temp / "t.txt").exists()
    assert not (dirs.outside / "x").exists()
    assert out.is_error and "Read-only file system" in out.text
    assert out.text.endswith(
        "Command exited with code 1\n[This command ran in the sandbox and may have failed because of it: "
        "only the project and temp dirs are writable in it. If it must run outside, call bash again "
        "with dangerouslyDisableSandbox: true.]"
    )
    assert out.result.details["sandboxed"] is True


async def test_writable_paths_from_settings_are_writable(dirs: Dirs) -> None:
    bash = _bash(dirs, _policy(dirs, writablePaths=[str(dirs.outside)]))
    out = await call(bash, command=f"echo x > {dirs.outside}/x")
    assert not out.is_error and (dirs.outside / "x").read_text() == "x\n"


async def test_tau_and_git_hooks_stay_read_only_inside_the_project(dirs: Dirs) -> None:
    (dirs.project / ".tau").mkdir()
    (dirs.project / ".git" / "hooks").mkdir(parents=True)
    bash = _bash(dirs, _policy(dirs))
    out = await call(
        bash, command="echo '{}' > .tau/settings.json; echo x > .git/hooks/pre-commit; echo ok > .git/HEAD"
    )
    assert out.text.count("Read-only file system") == 2
    assert not (dirs.project / ".tau" / "settings.json").exists()
    assert not (dirs.project / ".git" / "hooks" / "pre-commit").exists()
    assert (dirs.project / ".git" / "HEAD").read_text() == "ok\n"  # the rest of .git stays usable


@pytest.mark.parametrize("home_writable", [False, True])
async def test_secret_dirs_and_files_look_empty(dirs: Dirs, home_writable: bool) -> None:
    (dirs.home / ".ssh").mkdir()
    (dirs.home / ".ssh" / "id_ed25519").write_text("PRIVATE KEY")
    (dirs.home / ".netrc").write_text("machine example.com password hunter2")
    (dirs.home / ".tau").mkdir()
    (dirs.home / ".tau" / "auth.json").write_text('{"openai": {"key": "sk-secret"}}')
    bash = _bash(dirs, _policy(dirs, writablePaths=[str(dirs.home)] if home_writable else []))
    out = await call(
        bash, command=f"ls -A {dirs.home}/.ssh {dirs.home}/.tau; cat {dirs.home}/.netrc; echo end"
    )
    assert "id_ed25519" not in out.text and "auth.json" not in out.text and "hunter2" not in out.text
    assert out.text.endswith("end")


class _Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"hello from the host")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def local_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def _fetch(url: str) -> str:
    script = f'import urllib.request; print(urllib.request.urlopen("{url}", timeout=5).read().decode())'
    return f"{sys.executable} -c {shlex.quote(script)}"


async def test_network_off_cannot_reach_a_local_server(dirs: Dirs, local_server: str) -> None:
    out = await call(_bash(dirs, _policy(dirs)), command=_fetch(local_server))
    assert out.is_error and "hello from the host" not in out.text
    assert "Connection refused" in out.text and "the network is off in it" in out.text


async def test_network_on_reaches_it(dirs: Dirs, local_server: str) -> None:
    out = await call(_bash(dirs, _policy(dirs, network=True)), command=_fetch(local_server))
    assert not out.is_error and out.text == "hello from the host"


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in words and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


async def test_timeout_kills_children_and_grandchildren_inside(dirs: Dirs) -> None:
    marker = f"{uuid.uuid4().int % 100000 + 100000}.5"  # a sleep length no other process uses
    command = f"sleep {marker} & (setsid sleep {marker} &) ; echo started; sleep {marker}"
    start = time.monotonic()
    out = await call(_bash(dirs, _policy(dirs)), command=command, timeout=1)
    assert out.result.details["timedOut"] is True and time.monotonic() - start < 6
    assert "started" in out.text and "dangerouslyDisableSandbox" not in out.text
    deadline = time.monotonic() + 5
    while _processes_with(marker) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert _processes_with(marker) == []


async def test_the_flag_runs_the_command_outside(dirs: Dirs) -> None:
    bash = _bash(dirs, _policy(dirs))
    out = await call(bash, command=f"echo x > {dirs.outside}/x", **{DISABLE_FLAG: True})
    assert not out.is_error and (dirs.outside / "x").exists()
    assert out.result.details["sandboxed"] is False


async def test_the_flag_is_offered_only_with_a_sandbox(dirs: Dirs) -> None:
    assert DISABLE_FLAG in _bash(dirs, _policy(dirs)).parameters["properties"]
    assert "sandbox" in _bash(dirs, _policy(dirs)).description
    plain = _bash(dirs, None)
    assert DISABLE_FLAG not in plain.parameters["properties"] and "sandbox" not in plain.description


async def test_a_policy_source_is_asked_before_every_command(dirs: Dirs) -> None:
    current: list[SandboxPolicy | None] = [_policy(dirs)]
    bash = create_coding_tools(dirs.project, names=["bash"], sandbox=lambda: current[0])["bash"]
    assert (await call(bash, command=f"touch {dirs.outside}/a")).is_error
    current[0] = None
    assert not (await call(bash, command=f"touch {dirs.outside}/b")).is_error
    assert not (dirs.outside / "a").exists() and (dirs.outside / "b").exists()


@pytest.mark.parametrize("required", [False, True])
async def test_without_bwrap_on_path_warns_once_then_follows_required(
    dirs: Dirs, monkeypatch: pytest.MonkeyPatch, required: bool
) -> None:
    monkeypatch.setattr(launch, "_warned", set())
    monkeypatch.setenv("PATH", str(dirs.outside))  # bash itself is /bin/bash
    seen: list[str] = []
    policy = _policy(dirs, required=required)
    bash = _bash(dirs, dataclasses.replace(policy, notify=seen.append))
    first = await call(bash, command=f"echo x > {dirs.outside}/x")
    second = await call(bash, command=f"echo y > {dirs.outside}/y")
    assert len(seen) == 1 and "bwrap not found" in seen[0]
    if required:
        assert first.is_error and second.is_error
        assert "sandbox.required is true" in first.text and "sandbox.required is true" in second.text
        assert not (dirs.outside / "x").exists() and not (dirs.outside / "y").exists()
    else:
        assert first.text.startswith(seen[0]) and seen[0] not in second.text
        assert (dirs.outside / "x").exists() and (dirs.outside / "y").exists()  # ran unconfined


async def test_a_project_that_is_the_home_directory_still_hides_auth_json(dirs: Dirs) -> None:
    (dirs.home / ".tau").mkdir()
    (dirs.home / ".tau" / "auth.json").write_text('{"openai": {"key": "sk-secret"}}')
    policy = sandbox_policy(
        lambda key, default=None: None,
        dirs.home,
        home=dirs.home,
        tau_home=dirs.home / ".tau",
        forced=True,
        temp=[],
    )
    bash = create_coding_tools(dirs.home, names=["bash"], sandbox=policy)["bash"]
    out = await call(bash, command="cat .tau/auth.json; ls -A .tau; echo end")
    assert "sk-secret" not in out.text and "auth.json\n" not in out.text and out.text.endswith("end")
