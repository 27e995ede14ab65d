"""Dataclass methods' code kept between runs: each case is a fresh interpreter, as a tau run is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tau_coding.common.dataclass_code import cache_file

# A few kinds of dataclass, each method exercised; prints what a test compares.
PROBE = """
import dataclasses, json, sys
from tau_coding.common.dataclass_code import install
table = install(sys.argv[1]) if sys.argv[1] else None

@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 2
    tags: tuple[str, ...] = ()

@dataclasses.dataclass(order=True)
class Box:
    items: list[int] = dataclasses.field(default_factory=list)
    name: str = "box"

p = Point(1)
try:
    p.x = 5
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
b = Box()
b.items.append(1)
print(json.dumps({
    "repr": [repr(p), repr(Box())],
    "eq": p == Point(1, 2), "hash": hash(p) == hash(Point(1)), "frozen": frozen,
    "order": Box([1]) < Box([2]), "fresh_default": Box().items, "replace": repr(dataclasses.replace(p, y=9)),
    "doc": Point.__doc__,
    "hits": table.hits if table else None, "misses": table.misses if table else None,
}))
"""


def _probe(tau_home: Path | None, *, dont_write: bool = False) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if dont_write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    home = str(tau_home) if tau_home is not None else ""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, home], capture_output=True, text=True, env=env, timeout=60, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _behaviour(result: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in result.items() if k not in ("hits", "misses")}


def test_second_run_compiles_nothing_and_classes_behave_as_without_the_table(tmp_path: Path) -> None:
    plain = _probe(None)
    first = _probe(tmp_path)
    assert Path(cache_file(str(tmp_path))).is_file()
    second = _probe(tmp_path)
    assert first["hits"] == 0 and isinstance(first["misses"], int) and first["misses"] >= 8
    assert second["misses"] == 0 and second["hits"] == first["misses"]
    assert _behaviour(first) == _behaviour(second) == _behaviour(plain)
    assert plain["frozen"] is True and plain["fresh_default"] == [] and plain["order"] is True


def test_a_damaged_table_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    path = Path(cache_file(str(tmp_path)))
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00not marshal data")
    damaged = _probe(tmp_path)
    assert damaged["hits"] == 0 and damaged["misses"]
    assert _probe(tmp_path)["misses"] == 0


def test_nothing_is_written_when_python_writes_no_bytecode(tmp_path: Path) -> None:
    result = _probe(tmp_path, dont_write=True)
    assert result["misses"]
    assert not Path(cache_file(str(tmp_path))).exists()
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())
