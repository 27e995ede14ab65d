"""``tau batch --backend ray`` on a real local Ray cluster (``ray.init(num_cpus=2)``): results,
a killed Ray worker retried, resuming, and the rate budget held by an actor."""

from __future__ import annotations

import io
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="Ray is the optional extra 'ray': pip install '.[ray]'")

from tau_coding.batch.budget import Limits  # noqa: E402
from tau_coding.batch.runner import BatchOptions, run_batch  # noqa: E402
from tests.e2e.batch_project import TaskServer, batch_project, read_results, wait_for, write_tasks  # noqa: E402
from tests.e2e.scripted_project import Project  # noqa: E402
from tests.e2e.test_batch_end_to_end import _tau_process_of  # noqa: E402

pytestmark = [
    # Ray's own modules warn about their dependencies; those warnings are not Tau's.
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in ("RAY_AUTH_MODE", "RAY_USAGE_STATS_ENABLED")}
    os.environ.update(RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")  # nothing written to ~/.ray
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _run(project: Project, tasks: Path, out: Path, **options: object) -> tuple[int, str, str]:
    out_text, err_text = io.StringIO(), io.StringIO()
    options.setdefault("workers", 4)
    code = run_batch(
        BatchOptions(tasks=tasks, out=out, env=project.env(), backend="ray", **options),  # type: ignore[arg-type]
        out_text,
        err_text,
    )
    return code, out_text.getvalue(), err_text.getvalue()


@pytest.mark.parametrize("count", [10, pytest.param(50, marks=pytest.mark.long)])
def test_every_task_runs_as_a_ray_task_and_a_rerun_skips_them(
    cluster: None, tmp_path: Path, count: int
) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "README.md").write_text("x\n")
    server = TaskServer()
    out = tmp_path / "results.jsonl"
    with server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        write_tasks(tmp_path / "tasks.jsonl", count, source=source)
        code, _, err = _run(project, tmp_path / "tasks.jsonl", out)
        assert code == 0, err
        results = read_results(out)
        assert sorted(results) == [f"t{n:03d}" for n in range(count)]
        for n in range(count):
            r = results[f"t{n:03d}"]
            assert (r["status"], r["passed"], r["final_text"], r["attempts"]) == (
                "done",
                True,
                f"answer {n}",
                1,
            )
            assert f"+{n * n}\n" in r["diff"]
        served = len(server.requests)
        assert served == 2 * count
        code, summary, _ = _run(project, tmp_path / "tasks.jsonl", out)
        assert (code, len(server.requests)) == (0, served)
        assert f"{count} task(s) already had a result" in summary


def _parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def test_a_ray_worker_killed_mid_task_is_retried(cluster: None, tmp_path: Path) -> None:
    server = TaskServer(slow_task=1, slow_delay=0.5)
    session_folder = str((tmp_path / "results.d" / "sessions" / "t001").resolve())
    killed: list[int] = []

    def kill_the_worker() -> None:
        if wait_for(lambda: 1 in [n for n, _ in server.requests], 120):
            pid = _tau_process_of(session_folder)
            if pid is not None:
                worker = _parent_of(pid)
                os.kill(worker, signal.SIGKILL)  # the Ray worker, not the agent: Ray must retry
                killed.append(worker)

    with server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        write_tasks(tmp_path / "tasks.jsonl", 3)
        killer = threading.Thread(target=kill_the_worker)
        killer.start()
        code, _, err = _run(project, tmp_path / "tasks.jsonl", tmp_path / "results.jsonl", max_retries=2)
        killer.join()
    assert killed, "the slow task's worker was not found"
    results = read_results(tmp_path / "results.jsonl")
    assert code == 0, (err, results["t001"])
    assert (results["t001"]["status"], results["t001"]["attempts"]) == ("done", 2)
    assert results["t001"]["final_text"] == "answer 1"


def test_the_budget_actor_keeps_tasks_at_once_under_the_limit(cluster: None, tmp_path: Path) -> None:
    server = TaskServer(delay=0.05)
    with server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        write_tasks(tmp_path / "tasks.jsonl", 4)
        code, _, err = _run(
            project,
            tmp_path / "tasks.jsonl",
            tmp_path / "results.jsonl",
            limits=Limits(concurrency=1),
            num_cpus=0.5,
        )
    assert code == 0, err
    assert server.tasks_at_once() == 1
