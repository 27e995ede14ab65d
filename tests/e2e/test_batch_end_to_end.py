"""``tau batch`` on the local process pool against a scripted model server: real ``tau``
processes, real working copies, real results files."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tau_coding.batch.budget import Limits
from tau_coding.batch.runner import BatchOptions, run_batch
from tests.e2e.batch_project import TaskServer, batch_project, read_results, wait_for, write_tasks
from tests.e2e.scripted_project import Project


def _source(tmp_path: Path) -> Path:
    source = tmp_path / "src"
    source.mkdir()
    (source / "README.md").write_text("a project\n")
    return source


def _run(project: Project, tasks: Path, out: Path, **options: object) -> tuple[int, str, str]:
    out_text, err_text = io.StringIO(), io.StringIO()
    code = run_batch(BatchOptions(tasks=tasks, out=out, env=project.env(), **options), out_text, err_text)  # type: ignore[arg-type]
    return code, out_text.getvalue(), err_text.getvalue()


@pytest.mark.parametrize("count", [10, pytest.param(50, marks=pytest.mark.long)])
def test_every_task_runs_in_its_own_copy_and_all_results_are_right(tmp_path: Path, count: int) -> None:
    source = _source(tmp_path)
    server = TaskServer()
    with server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        write_tasks(tmp_path / "tasks.jsonl", count, source=source, meta={"suite": "squares"})
        code, summary, err = _run(project, tmp_path / "tasks.jsonl", tmp_path / "results.jsonl", workers=4)
    assert code == 0, err
    results = read_results(tmp_path / "results.jsonl")
    assert sorted(results) == [f"t{n:03d}" for n in range(count)]
    for n in range(count):
        r = results[f"t{n:03d}"]
        assert (r["status"], r["passed"], r["turns"], r["final_text"]) == ("done", True, 2, f"answer {n}")
        assert r["tokens"] == {"input": 200, "output": 40, "total": 240}
        assert f"+{n * n}\n" in r["diff"] and "b/answer.txt" in r["diff"] and "README" not in r["diff"]
        assert r["meta"] == {"suite": "squares"} and r["error"] is None
        assert Path(r["session_file"]).is_file() and f"/sessions/t{n:03d}/" in r["session_file"]
    assert len(server.requests) == 2 * count
    assert not (source / "answer.txt").exists()  # the source folder is never touched
    assert "done" in summary and str(count) in summary


def test_a_bad_line_is_one_message_and_the_other_tasks_still_run(tmp_path: Path) -> None:
    server = TaskServer()
    with server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        tasks = tmp_path / "tasks.jsonl"
        write_tasks(tasks, 2)
        tasks.write_text(tasks.read_text() + '{"id": "bad", "promt": "typo"}\n')
        code, _, err = _run(project, tasks, tmp_path / "results.jsonl", workers=2)
    assert code == 1
    assert err.count("\n") == 1 and err.startswith(f"tau batch: {tasks}:3: not a task:")
    assert sorted(read_results(tmp_path / "results.jsonl")) == ["t000", "t001"]


def test_a_rerun_skips_finished_tasks_and_retry_failed_runs_the_failed_again(tmp_path: Path) -> None:
    server = TaskServer()
    out = tmp_path / "results.jsonl"
    with server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        tasks = tmp_path / "tasks.jsonl"
        write_tasks(tasks, 3)
        lines = tasks.read_text().splitlines()
        broken = json.loads(lines[1])
        broken["check"] = "false"
        tasks.write_text("\n".join([lines[0], json.dumps(broken), lines[2]]) + "\n")
        assert _run(project, tasks, out, workers=3)[0] == 1
        assert {k: r["status"] for k, r in read_results(out).items()} == {
            "t000": "done",
            "t001": "failed",
            "t002": "done",
        }
        assert read_results(out)["t001"]["error"] == "check failed"
        first = len(server.requests)
        code, summary, _ = _run(project, tasks, out, workers=3)
        assert (code, len(server.requests)) == (1, first)  # nothing ran again
        assert "3 task(s) already had a result" in summary
        _run(project, tasks, out, workers=3, retry_failed=True)
        assert sorted({n for n, _ in server.requests[first:]}) == [1]  # only the failed one
    assert len(out.read_text().splitlines()) == 4


def _tau_process_of(session_folder: str) -> int | None:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if session_folder.encode() in cmdline:
                return int(entry.name)
    return None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the agent's process in /proc")
def test_a_worker_killed_mid_task_is_retried_and_the_others_are_untouched(tmp_path: Path) -> None:
    server = TaskServer(slow_task=1, slow_delay=0.4)
    killed: list[int] = []
    session_folder = str((tmp_path / "results.d" / "sessions" / "t001").resolve())

    def kill_the_slow_one() -> None:
        if wait_for(lambda: 1 in [n for n, _ in server.requests], 60):
            pid = _tau_process_of(session_folder)
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

    with server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        write_tasks(tmp_path / "tasks.jsonl", 3, source=_source(tmp_path))
        killer = threading.Thread(target=kill_the_slow_one)
        killer.start()
        code, _, err = _run(project, tmp_path / "tasks.jsonl", tmp_path / "results.jsonl", workers=3)
        killer.join()
    assert killed, "the slow task's tau process was not found"
    results = read_results(tmp_path / "results.jsonl")
    assert code == 0, err
    assert (results["t001"]["status"], results["t001"]["attempts"], results["t001"]["passed"]) == (
        "done",
        2,
        True,
    )
    assert [results[k]["attempts"] for k in ("t000", "t002")] == [1, 1]


def test_timeout_kills_the_process_group_and_limits_stop_the_run(tmp_path: Path) -> None:
    server = TaskServer(slow_task=0, slow_delay=3.0)
    with server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        tasks = [
            {"id": "slow", "prompt": "Solve task 0.", "model": "scripted/scripted-model", "timeout": 1.5},
            {"id": "greedy", "prompt": "Solve task 1.", "model": "scripted/scripted-model", "max_tokens": 50},
            {"id": "short", "prompt": "Solve task 2.", "model": "scripted/scripted-model", "max_turns": 1},
        ]
        (tmp_path / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
        code, _, _ = _run(project, tmp_path / "tasks.jsonl", tmp_path / "results.jsonl", workers=3)
    results = read_results(tmp_path / "results.jsonl")
    assert code == 1
    assert results["slow"]["status"] == "timeout" and results["slow"]["wall_time"] < 3.0
    assert results["greedy"]["status"] == "failed"
    assert results["greedy"]["error"].startswith("max_tokens 50 passed (120 tokens)")
    assert (results["short"]["status"], results["short"]["turns"]) == ("failed", 1)


def test_the_shared_rate_limit_keeps_tasks_at_once_under_the_budget(tmp_path: Path) -> None:
    limited, free = TaskServer(delay=0.05), TaskServer(delay=0.05)
    for server, limits, folder in ((limited, Limits(concurrency=2), "a"), (free, Limits(), "b")):
        base = tmp_path / folder
        base.mkdir()
        with server.server() as srv:
            project = batch_project(base, srv.url)
            write_tasks(base / "tasks.jsonl", 6)
            code, _, err = _run(
                project, base / "tasks.jsonl", base / "results.jsonl", workers=6, limits=limits
            )
            assert code == 0, err
    assert limited.tasks_at_once() <= 2
    assert free.tasks_at_once() > 2  # the same batch without the budget does overlap more


def test_the_tau_batch_command_prints_a_summary_and_says_how_it_went(tmp_path: Path) -> None:
    server = TaskServer()
    with server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        write_tasks(tmp_path / "tasks.jsonl", 2)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tau_coding",
                "batch",
                "tasks.jsonl",
                "--out",
                "out/results.jsonl",
                "--workers",
                "2",
            ],
            cwd=tmp_path,
            env=project.env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert "tau batch" in done.stdout and "done" in done.stdout
    assert done.stderr == ""  # no progress bar when stderr is not a terminal
    assert sorted(read_results(tmp_path / "out" / "results.jsonl")) == ["t000", "t001"]
    assert (tmp_path / "out" / "results.d" / "sessions" / "t000").is_dir()
    usage = subprocess.run(
        [sys.executable, "-m", "tau_coding", "batch", "tasks.jsonl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert usage.returncode == 2 and usage.stderr.count("\n") == 1 and "--out" in usage.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the agent's process in /proc")
def test_killing_the_runner_loses_only_the_task_in_flight_and_its_agent_dies_too(tmp_path: Path) -> None:
    server = TaskServer(slow_task=2, slow_delay=0.5)  # task 2's first reply streams for seconds
    session_folder = str((tmp_path / "results.d" / "sessions" / "t002").resolve())
    out = tmp_path / "results.jsonl"
    command = [
        sys.executable,
        "-m",
        "tau_coding",
        "batch",
        "tasks.jsonl",
        "--out",
        "results.jsonl",
        "--workers",
        "1",
    ]
    with server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        write_tasks(tmp_path / "tasks.jsonl", 4)
        runner = subprocess.Popen(command, cwd=tmp_path, env=project.env(), stdout=subprocess.DEVNULL)
        try:
            assert wait_for(lambda: 2 in [n for n, _ in server.requests], 120)
            agent = _tau_process_of(session_folder)
            assert agent is not None
            runner.kill()  # SIGKILL: no clean-up code of the runner runs
            runner.wait(30)
            assert wait_for(lambda: not Path(f"/proc/{agent}").exists() or _is_zombie(agent), 10)
        finally:
            if runner.poll() is None:
                runner.kill()
                runner.wait(30)
        assert sorted(read_results(out)) == ["t000", "t001"]  # finished ones are on disk, whole
        before = len(server.requests)
        done = subprocess.run(
            command, cwd=tmp_path, env=project.env(), capture_output=True, text=True, timeout=180
        )
    assert done.returncode == 0, done.stderr
    assert sorted({n for n, _ in server.requests[before:]}) == [2, 3]  # only what was left
    assert sorted(read_results(out)) == ["t000", "t001", "t002", "t003"]


def _is_zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
