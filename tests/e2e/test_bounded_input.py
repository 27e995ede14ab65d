"""``@file`` and piped stdin are read bounded: huge or endless input is a one-line error, fast,
in little memory."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

MEMORY_CAP = 1024 * 1024 * 1024  # address space: a whole-file read of the inputs below fails


def _tau(
    tmp_path: Path, *args: str, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(HOME=str(tmp_path), TAU_HOME=str(tmp_path / ".tau"))
    return subprocess.run(
        [sys.executable, "-m", "tau_coding", *args],
        cwd=tmp_path,
        env=env,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=cap,
    )


@pytest.mark.parametrize("target", ["/dev/zero", "huge.bin"])
def test_an_endless_or_huge_attachment_is_a_one_line_error(tmp_path: Path, target: str) -> None:
    if target == "huge.bin":
        with open(tmp_path / target, "wb") as handle:
            handle.truncate(2 * 1024 * 1024 * 1024)  # sparse: 2 GB on paper
    result = _tau(tmp_path, "-p", f"@{target}", "what is this?")
    assert result.returncode == 2
    assert result.stderr == f"tau: cannot attach {target}: larger than 5 MB\n"


def test_endless_piped_stdin_is_a_one_line_error(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        result = _tau(tmp_path, "-p", "summarise", stdin=zero.fileno())
    assert result.returncode == 2
    assert result.stderr == "tau: stdin is larger than 10 MB; pass a smaller input\n"
