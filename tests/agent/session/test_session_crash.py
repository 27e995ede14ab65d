from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[3] / "bench" / "crash_sessions.py"


def test_a_writer_killed_at_random_moments_never_loses_or_corrupts_the_session() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--runs", "12", "--seed", "7"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "runs=12" in result.stdout
