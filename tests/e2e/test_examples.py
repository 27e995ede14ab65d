"""The runnable examples under examples/ run and print what they promise."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("sdk_basic.py", "answer: That text has 4 words."),
        ("rpc_client.py", "Hello from Tau."),
    ],
)
async def test_the_example_runs(name: str, expected: str) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(EXAMPLES / name), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    assert expected in out.decode(), out.decode()
