"""Traces from the real ``tau`` command: a JSONL file in print, JSON and RPC mode and from a batch,
and an OTLP/HTTP export to a collector stub on loopback."""

from __future__ import annotations

import http.server
import json
import threading
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("opentelemetry.sdk", reason="tracing needs the otel extra: pip install '.[otel]'")

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tau_coding.batch.runner import BatchOptions, run_batch
from tau_coding.sdk.rpc_client import RpcClient
from tests.e2e.batch_project import TaskServer, batch_project, write_tasks
from tests.e2e.scripted_project import MODEL, Project, server

API = "openai-completions"


def _replies() -> list[ScriptedReply]:
    call = ScriptedCall("call_000000001", "ls", {"path": "."})
    return [ScriptedReply(calls=[call], input_tokens=30, output_tokens=5), ScriptedReply(text="Listed.")]


def _tree(spans: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    names = {s["span_id"]: s["name"] for s in spans}
    return sorted((s["name"], names.get(s["parent_span_id"]) if s["parent_span_id"] else None) for s in spans)


EXPECTED = sorted(
    [
        ("invoke_agent tau", None),
        ("turn", "invoke_agent tau"),
        ("turn", "invoke_agent tau"),
        ("chat scripted-model", "turn"),
        ("chat scripted-model", "turn"),
        ("execute_tool ls", "turn"),
    ]
)


@pytest.mark.parametrize("mode", ["text", "json", "rpc"])
async def test_a_trace_file_holds_the_span_tree_in_every_mode(tmp_path: Path, mode: str) -> None:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", API)
    trace_file = tmp_path / "trace.jsonl"
    async with server(API, _replies()) as srv:
        project.configure(srv.url)
        flags = ("--model", MODEL, "--trace-file", str(trace_file))
        if mode == "rpc":
            async with await RpcClient.start(list(flags), cwd=project.root, env=project.env()) as client:
                await client.prompt_and_wait("list the files")
            result = None
        else:
            result = await project.tau("-p", "--mode", mode, *flags, "list the files")
            assert result.code == 0, result.stderr
    spans = [json.loads(line) for line in trace_file.read_text().splitlines()]
    assert _tree(spans) == EXPECTED, spans
    chat = next(s for s in spans if s["name"] == "chat scripted-model")
    assert chat["kind"] == "CLIENT"
    assert chat["attributes"]["gen_ai.usage.input_tokens"] == 30
    assert chat["attributes"]["gen_ai.response.finish_reasons"] == ["tool_calls"]
    assert spans[0]["resource"]["service.name"] == "tau"


async def test_without_a_trace_file_or_endpoint_opentelemetry_is_never_imported(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", API)
    async with server(API, [ScriptedReply(text="hi")]) as srv:
        project.configure(srv.url)
        env = project.env()
        env["PYTHONPROFILEIMPORTTIME"] = "1"  # every import is listed on stderr
        project.env = lambda: env  # type: ignore[method-assign]
        off = await project.tau("-p", "--model", MODEL, "hello")
        on = await project.tau("-p", "--model", MODEL, "--trace-file", str(tmp_path / "t.jsonl"), "hello")
    assert off.code == 0 and on.code == 0, off.stderr[-500:]
    assert "tau_coding.tracing" in off.stderr  # the one cheap check is imported ...
    assert (
        "opentelemetry" not in off.stderr and "tau_coding.tracing.setup" not in off.stderr
    )  # ... nothing more
    assert "opentelemetry.sdk" in on.stderr


class _Collector(http.server.BaseHTTPRequestHandler):
    received: ClassVar[list[tuple[str, str, bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["content-length"]))
        type(self).received.append((self.path, self.headers["content-type"], body))
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


async def test_spans_are_exported_over_otlp_http_to_a_collector(tmp_path: Path) -> None:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    _Collector.received = []
    collector = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    thread = threading.Thread(target=collector.serve_forever, daemon=True)
    thread.start()
    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", API)
    try:
        async with server(API, _replies()) as srv:
            project.configure(srv.url)
            env = project.env()
            env["OTEL_EXPORTER_OTLP_ENDPOINT"] = f"http://127.0.0.1:{collector.server_address[1]}"
            env["OTEL_SERVICE_NAME"] = "tau-under-test"
            project.env = lambda: env  # type: ignore[method-assign]
            result = await project.tau("-p", "--model", MODEL, "list the files")
            assert result.code == 0, result.stderr
    finally:
        collector.shutdown()
        collector.server_close()
    assert _Collector.received and all(path == "/v1/traces" for path, _, _ in _Collector.received)
    assert all(kind == "application/x-protobuf" for _, kind, _ in _Collector.received)
    spans: list[dict[str, Any]] = []
    services = set()
    for _, _, body in _Collector.received:
        request = ExportTraceServiceRequest.FromString(body)
        for resource_spans in request.resource_spans:
            for attribute in resource_spans.resource.attributes:
                if attribute.key == "service.name":
                    services.add(attribute.value.string_value)
            for scope in resource_spans.scope_spans:
                for span in scope.spans:
                    spans.append(
                        {
                            "name": span.name,
                            "span_id": span.span_id.hex(),
                            "parent_span_id": span.parent_span_id.hex() or None,
                        }
                    )
    assert services == {"tau-under-test"}
    assert _tree(spans) == EXPECTED


def test_a_batch_trace_file_has_one_tree_per_task_named_by_task(tmp_path: Path) -> None:
    task_server = TaskServer()
    trace_file = tmp_path / "trace.jsonl"
    with task_server.server() as srv:
        project = batch_project(tmp_path, srv.url)
        write_tasks(tmp_path / "tasks.jsonl", 4)
        options = BatchOptions(
            tasks=tmp_path / "tasks.jsonl",
            out=tmp_path / "r.jsonl",
            workers=4,
            env=project.env(),
            trace_file=str(trace_file),
        )
        import io

        assert run_batch(options, io.StringIO(), io.StringIO()) == 0
    spans = [json.loads(line) for line in trace_file.read_text().splitlines()]
    roots = [s for s in spans if s["parent_span_id"] is None]
    assert sorted(s["attributes"]["tau.batch.task_id"] for s in roots) == ["t000", "t001", "t002", "t003"]
    for root in roots:
        own = [s for s in spans if s["trace_id"] == root["trace_id"]]
        assert _tree(own) == sorted(
            [
                ("invoke_agent tau", None),
                ("turn", "invoke_agent tau"),
                ("turn", "invoke_agent tau"),
                ("chat scripted-model", "turn"),
                ("chat scripted-model", "turn"),
                ("execute_tool write", "turn"),
            ]
        )


async def test_without_the_otel_extra_a_trace_file_is_one_warning_and_the_run_goes_on(tmp_path: Path) -> None:
    import asyncio
    import sys

    root = tmp_path / "project"
    root.mkdir()
    project = Project(root, tmp_path / "home", API)
    hide = "import sys; sys.modules['opentelemetry'] = None; from tau_coding.app.cli import main; sys.exit(main())"
    async with server(API, [ScriptedReply(text="fine")]) as srv:
        project.configure(srv.url)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            hide,
            "-p",
            "--model",
            MODEL,
            "--trace-file",
            str(tmp_path / "t.jsonl"),
            "hello",
            cwd=root,
            env=project.env(),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(), 60)
    assert (process.returncode, out.decode()) == (0, "fine\n")
    lines = err.decode().splitlines()
    assert len(lines) == 1 and "tracing needs OpenTelemetry" in lines[0] and "[otel]" in lines[0]
    assert not (tmp_path / "t.jsonl").exists()
