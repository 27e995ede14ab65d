"""Fault matrix: the real ``tau -p`` against a local server that fails once, in every wire API.

    python bench/fault_matrix.py                       # every API x every fault, text mode
    python bench/fault_matrix.py --mode json --api anthropic-messages --fault stall
    python bench/fault_matrix.py --markdown            # the table for docs/reliability.md

Each case asks "Which port?" in a project whose config.py holds the answer. The healthy model
reads config.py with one tool call, then answers "The port is 9090."; the fault hits the first
request only (see tau_ai.testing.faults). A case passes when the run ends as specified:

* transient faults: exit 0, the answer printed exactly once, the retry visible (a line on stderr
  in text mode, ``auto_retry_start`` in JSON mode);
* 401: exit 1, one line on stderr, no second request;
* context overflow on the first request: compacted and answered, or exit 1 with the provider's
  overflow message last; after the first tool turn: that turn summarised, then the answer;

and, always, the session file valid (bench/session_rules.py): readable, every tool call with
exactly one result, no answer recorded twice. Exits 1 when any case fails.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.session_rules import session_problems
from bench.tau_project import ANSWER, TauProject, answer, body, read_call
from tau_ai.overflow import is_overflow_text
from tau_ai.testing.faults import FAULTS, expected, fault_request, fault_response
from tau_ai.testing.replay_server import RecordedRequest, ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import APIS

# Agent-level retries wait little; a stalled stream is given up after 2 s (Pi's setting names).
# A tiny keepRecentTokens lets an overflow after the first tool turn compact that turn.
SETTINGS = {
    "retry": {"enabled": True, "baseDelayMs": 20, "provider": {"timeoutMs": 2000}},
    "compaction": {"keepRecentTokens": 1},
}
RUN_TIMEOUT = 30.0
SUMMARY = "## Goal\nFind the port.\n\n## Progress\n### Done\n- read config.py"


@dataclass(frozen=True)
class CaseResult:
    api: str
    fault: str
    mode: str
    ok: bool
    outcome: str
    seconds: float
    requests: int


def healthy(api: str, request: RecordedRequest) -> bytes:
    """What a healthy model answers: a summary, the answer after the file was read, or a read."""
    if b"<conversation>" in request.body:
        return body(api, answer(SUMMARY))
    if b"PORT = 9090" in request.body:
        return body(api, answer())
    return body(api, read_call(1))


def run_case(api: str, fault: str, mode: str = "text", folder: Path | None = None) -> CaseResult:
    with tempfile.TemporaryDirectory(prefix="tau-fault-", dir=folder) as tmp:
        return _run_case(api, fault, mode, Path(tmp))


def _run_case(api: str, fault: str, mode: str, tmp: Path) -> CaseResult:
    def respond(request: RecordedRequest, index: int) -> Scripted:
        good = healthy(api, request)
        return fault_response(api, fault, good) if index == fault_request(fault) else Scripted(body=good)

    with ReplayServerThread(respond) as server:
        project = TauProject.create(tmp, api, server.url, settings=SETTINGS)
        argv = project.argv("-p", *(("--mode", "json") if mode == "json" else ()), "Which port?")
        start = time.perf_counter()
        try:
            done = subprocess.run(
                argv, cwd=project.root, env=project.env(), capture_output=True, text=True, timeout=RUN_TIMEOUT
            )
            code, out, err = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as exc:
            code, out, err = -1, _text(exc.stdout), _text(exc.stderr)
        seconds = time.perf_counter() - start
        requests = len(server.requests)
        summaries = sum(b"<conversation>" in r.body for r in server.requests)
    ok, outcome = judge(fault, mode, code, out, err, requests, project, summaries)
    return CaseResult(api, fault, mode, ok, outcome, seconds, requests)


def _text(value: bytes | str | None) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else (value or "")


def _answer_and_retry(mode: str, out: str, err: str) -> tuple[int, bool]:
    """(times the answer was given, whether a retry was shown)."""
    if mode == "text":
        return out.count(ANSWER), "retry" in err.lower()
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    answers = sum(
        1
        for e in events
        if e.get("type") == "message_end"
        and e.get("message", {}).get("role") == "assistant"
        and ANSWER in json.dumps(e["message"].get("content"))
    )
    return answers, any(e.get("type") == "auto_retry_start" for e in events)


def _event_errors(out: str) -> list[str]:
    """The error messages of the assistant replies in JSON-mode output."""
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return [
        str(e["message"]["errorMessage"])
        for e in events
        if e.get("type") == "message_end" and e.get("message", {}).get("errorMessage")
    ]


def judge(
    fault: str,
    mode: str,
    code: int,
    out: str,
    err: str,
    requests: int,
    project: TauProject,
    summaries: int = 0,
) -> tuple[bool, str]:
    """(passed, what happened in a few words). Configuration warnings do not count as output."""
    said = [line for line in err.strip().splitlines() if not line.startswith("tau: warning:")]
    if mode == "json" and not said:  # the error travels in the events
        said = _event_errors(out)[-1:]
    last_line = said[-1] if said else ""
    first_line = last_line[:100]
    if code == -1:
        return False, f"still running after {RUN_TIMEOUT:.0f}s ({requests} requests)"
    files = project.session_files()
    problems = [p for f in files for p in session_problems(f)]
    answers, retried = _answer_and_retry(mode, out, err)
    want = expected(fault)
    if want == "auth-error":
        lines = len(said)
        if code == 1 and lines == 1 and requests == 1:
            verdict: tuple[bool, str] = (True, "exit 1, one line, not retried")
        else:
            verdict = (False, f"exit {code}, {lines} stderr lines, {requests} requests: {first_line}")
    elif want == "compacted":
        if code == 0 and answers == 1 and summaries:
            verdict = (True, f"compacted, then answered ({requests} requests)")
        else:
            verdict = (False, f"exit {code}, answer {answers} times, {summaries} summaries: {first_line}")
    elif code == 0 and answers == 1 and (retried or want == "overflow"):
        verdict = (True, f"answered after {requests} requests")
    elif code == 0 and answers == 1:
        verdict = (False, "answered, but the retry was not shown")
    elif want == "overflow" and code == 1 and is_overflow_text(last_line):
        verdict = (True, f"clear error: {first_line}")
    elif code == 0:
        verdict = (False, f"exit 0 with the answer {answers} times")
    else:
        verdict = (False, f"exit {code}: {first_line}")
    if problems:
        return False, f"{verdict[1]}; session: {problems[0]}"
    return verdict


def markdown(results: list[CaseResult]) -> str:
    apis = list(dict.fromkeys(r.api for r in results))
    faults = list(dict.fromkeys(r.fault for r in results))
    modes = list(dict.fromkeys(r.mode for r in results))
    cell = {(r.api, r.fault, r.mode): r for r in results}
    lines = [
        f"| fault ({'/'.join(modes)}) | " + " | ".join(apis) + " |",
        "|---|" + "---|" * len(apis),
    ]
    for fault in faults:
        row = []
        for api in apis:
            marks = [cell[(api, fault, m)] for m in modes if (api, fault, m) in cell]
            row.append(" / ".join("ok" if r.ok else "**FAIL**" for r in marks))
        lines.append(f"| {fault} | " + " | ".join(row) + " |")
    passed = sum(r.ok for r in results)
    lines.append("")
    lines.append(f"{passed}/{len(results)} cases end as specified.")
    failures = [r for r in results if not r.ok]
    if failures:
        lines.append("")
        lines.append("Failures:")
        lines += [f"- {r.api} / {r.fault} / {r.mode}: {r.outcome}" for r in failures]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--api", action="append", choices=APIS, help="only this API (repeatable)")
    parser.add_argument("--fault", action="append", choices=FAULTS, help="only this fault (repeatable)")
    parser.add_argument("--mode", action="append", choices=("text", "json"), help="default: text")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown at the end")
    args = parser.parse_args()
    results = []
    for fault in args.fault or FAULTS:
        for api in args.api or APIS:
            for mode in args.mode or ["text"]:
                result = run_case(api, fault, mode)
                results.append(result)
                mark = "ok  " if result.ok else "FAIL"
                print(
                    f"{mark} {api:<22} {fault:<22} {mode:<4} {result.seconds:5.1f}s  {result.outcome}",
                    flush=True,
                )
    passed = sum(r.ok for r in results)
    print(f"{passed}/{len(results)} cases end as specified")
    if args.markdown:
        print()
        print(markdown(results))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
