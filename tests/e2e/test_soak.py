"""The soak's CI share: one real ``tau`` process serves 250 model requests in print and RPC
mode without failing, leaking file descriptors or sockets, or growing in memory or per-request
time. The long version (1,000 requests, also JSON and TUI mode) is ``python bench/soak.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench.soak import soak


@pytest.mark.parametrize(("mode", "prompts"), [("print", 1), ("rpc", 5)])
async def test_one_process_serves_250_requests_with_flat_descriptors_memory_and_time(
    mode: str, prompts: int, tmp_path: Path
) -> None:
    result = await soak(mode, 250, prompts, folder=tmp_path)
    assert result.problems() == [], result.line()
