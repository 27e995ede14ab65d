"""Module-level patterns kept between runs: each case is a fresh interpreter, as a tau run is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# Patterns of several kinds compiled by a module's body, a class's body and a function; what
# each matches is printed, with the table's counts and whether the function's pattern was kept.
PROBE = r"""
import json, re, sys
from tau_coding.common import regex_code
from tau_coding.common.dataclass_code import install
table = install(sys.argv[1]) if sys.argv[1] else None
if table is not None:
    regex_code.install(table)

WORD = re.compile(r"(?P<word>\w+)-(?P<n>\d+)|(?i:caps)")
VERBOSE = re.compile(r'''
    ^ \s* (?P<key> [a-z_]+ ) \s* = \s* (?P<value> .*? ) \s* $   # key = value
''', re.VERBOSE | re.MULTILINE | re.IGNORECASE)
BYTES = re.compile(rb"\x00(?P<tag>[A-Z]{2,4})\xff", re.DOTALL)
LOOKAROUND = re.compile(r"(?<=a)b(?!c)|(\d)\1")
MATCHED_AT_IMPORT = re.match(r"(\w+) (\w+)", "hello world")

class Holder:
    IN_CLASS = re.compile(r"[^\W\d_]+", re.ASCII)

def later(text):
    return re.compile(text + r"\d{3}")

class Expect:  # as Textual's CSS tokenizer: a constant object whose constructor compiles
    def __init__(self, *words):
        self.pattern = re.compile("|".join(f"(?P<{w}>{w})" for w in words))

EXPECT = Expect("red", "green")

def describe(p):
    return [p.pattern if isinstance(p.pattern, str) else p.pattern.hex(), p.flags, p.groups,
            dict(p.groupindex)]

text = "alpha-12 CAPS beta-7 ab abc 11\nKey = Some Value \n"
print(json.dumps({
    "patterns": [describe(p) for p in (WORD, VERBOSE, BYTES, LOOKAROUND, Holder.IN_CLASS)],
    "word": [m.groupdict() for m in WORD.finditer(text)],
    "verbose": [m.group("key", "value") for m in VERBOSE.finditer(text)],
    "bytes": BYTES.sub(rb"<\g<tag>>", b"a\x00ABC\xffb\x00x\xff").hex(),
    "look": [m.span() for m in LOOKAROUND.finditer(text)],
    "import_match": MATCHED_AT_IMPORT.groups(),
    "class": Holder.IN_CLASS.findall("déjà vu 42 ok"),
    "later": bool(later("x").fullmatch("x123")),
    "later_kept": bool(table) and ("re", r"x\d{3}", 0) in table.table,
    "expect": EXPECT.pattern.search("a green one").lastgroup,
    "expect_kept": bool(table) and ("re", "(?P<red>red)|(?P<green>green)", 0) in table.table,
    "hits": table.hits if table else None, "misses": table.misses if table else None,
}))
"""


def _probe(tau_home: Path | None) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    home = str(tau_home) if tau_home is not None else ""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, home], capture_output=True, text=True, env=env, timeout=60, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _behaviour(result: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in result.items() if k not in ("hits", "misses", "later_kept", "expect_kept")}


def test_patterns_from_the_table_behave_as_compiled_and_a_later_run_compiles_none(tmp_path: Path) -> None:
    plain = _probe(None)
    first = _probe(tmp_path)
    second = _probe(tmp_path)
    assert isinstance(first["misses"], int) and first["misses"] >= 6  # the module's and class's patterns
    assert second["misses"] == 0 and second["hits"] == first["hits"] + first["misses"]
    assert _behaviour(first) == _behaviour(second) == _behaviour(plain)
    assert plain["word"] == [
        {"word": "alpha", "n": "12"},
        {"word": None, "n": None},
        {"word": "beta", "n": "7"},
    ]
    assert plain["class"] == ["d", "j", "vu", "ok"]  # ASCII: the accented letters split words


def test_a_pattern_compiled_inside_a_function_is_not_kept(tmp_path: Path) -> None:
    _probe(tmp_path)
    again = _probe(tmp_path)
    assert again["later"] is True and again["later_kept"] is False


def test_a_pattern_compiled_by_a_constructor_at_import_is_kept(tmp_path: Path) -> None:
    plain = _probe(None)
    _probe(tmp_path)
    again = _probe(tmp_path)
    assert again["expect_kept"] is True
    assert again["expect"] == plain["expect"] == "green"
