"""``tau batch TASKS.jsonl --out RESULTS.jsonl [options]``: the command line of the batch runner."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from tau_coding.batch.budget import Limits
from tau_coding.batch.runner import BatchOptions, run_batch
from tau_coding.common.exit_codes import EXIT_USAGE


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"tau batch: {message} (see tau batch --help)\n")
        raise SystemExit(EXIT_USAGE)


def _positive(kind: Callable[[str], float]) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="tau batch",
        description="Run every task of a JSONL file, each in its own working copy, session and tau process.",
        epilog="Exit codes: 0 every task done, 1 some task not done or a bad line, 2 usage. See docs/batch.md.",
    )
    p.add_argument("tasks", type=Path, help="tasks, one JSON object a line")
    p.add_argument("--out", type=Path, required=True, help="results, one JSON line per task (appended)")
    p.add_argument("--workers", type=_positive(int), default=4, help="tasks at once (default 4)")
    p.add_argument("--backend", choices=("local", "ray"), default="local", help="process pool or Ray")
    p.add_argument("--ray-address", help="Ray cluster to join (default: RAY_ADDRESS, else a local one)")
    p.add_argument("--num-cpus", type=_positive(float), default=1.0, help="Ray CPUs per task (default 1)")
    p.add_argument(
        "--retry-failed", action="store_true", help="run again tasks that failed, erred or timed out"
    )
    p.add_argument(
        "--max-retries", type=int, default=1, help="tries more for a task whose worker was killed (default 1)"
    )
    p.add_argument("--concurrency", type=_positive(int), help="tasks at once per provider")
    p.add_argument("--tokens-per-minute", type=_positive(int), help="tokens per minute per provider")
    p.add_argument("--trace-file", help="every task's spans, as JSON lines (docs/tracing.md)")
    p.add_argument("--keep-work", action="store_true", help="keep each task's working copy")
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.max_retries < 0:
        sys.stderr.write("tau batch: --max-retries must be 0 or more\n")
        return EXIT_USAGE
    options = BatchOptions(
        tasks=args.tasks,
        out=args.out,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        num_cpus=args.num_cpus,
        retry_failed=args.retry_failed,
        max_retries=args.max_retries,
        limits=Limits(concurrency=args.concurrency, tokens_per_minute=args.tokens_per_minute),
        trace_file=args.trace_file,
        keep_work=args.keep_work,
    )
    if options.backend == "ray":
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            sys.stderr.write("tau batch: --backend ray needs Ray: pip install 'tau-agent-harness[ray]'\n")
            return EXIT_USAGE
    return run_batch(options, sys.stdout, sys.stderr)
