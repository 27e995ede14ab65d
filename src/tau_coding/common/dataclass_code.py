"""Dataclass methods compiled once per interpreter version and kept between runs.

(The same table keeps the compiled form of module-level regular expressions: regex_code.py.)

``@dataclass`` writes each class's methods (``__init__``, ``__repr__``, ``__eq__``, and for a
frozen class ``__hash__``, ``__setattr__`` and ``__delattr__``) as source text and compiles
that text with ``exec`` while the class's module is imported. A ``tau -p`` run imports about
130 dataclasses, and compiling their methods was the largest single part of Tau's own start-up
(about 3.6 M instructions a class, more than half of it the compiling).

``install`` gives the ``dataclasses`` module an ``exec`` that looks the text up in a table of
code objects read from one file, compiles only text it has not seen, and writes the table back
at exit when something was new. A code object is what ``compile`` makes of exactly that text
under this interpreter (the file's name carries the interpreter's version), so a class made
with the table behaves as one made without it. A missing, unreadable or damaged file costs
only the compiling it would have saved; the file is not written when Python is told not to
write bytecode (``PYTHONDONTWRITEBYTECODE``), as it would not write ``.pyc`` files either.
"""

from __future__ import annotations

import builtins
import contextlib
import marshal
import os
import sys
from types import CodeType

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows the name
if TYPE_CHECKING:
    from typing import Any

MAX_ENTRIES = 5000  # past this, the file keeps only what the run that grew it used


def cache_file(tau_home: str) -> str:
    """The table's file for this interpreter under ``tau_home`` (``~/.tau`` by default)."""
    tag = f"{sys.implementation.cache_tag}-{sys.hexversion:x}"
    return os.path.join(tau_home, "cache", f"dataclass-code-{tag}.marshal")


class CodeTable:
    """Source text to compiled code, read from and written back to ``path``.

    ``hits`` and ``misses`` count the texts found and compiled in this process."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.table: dict[Any, object] = _read(path)
        self.used: set[Any] = set()
        self.hits = 0
        self.misses = 0

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        """``exec`` for the dataclasses module: text is compiled at most once per interpreter."""
        if globals is None:  # as exec itself: the caller's namespace (dataclasses always passes one)
            frame = sys._getframe(1)
            globals = frame.f_globals
            locals = frame.f_locals if locals is None else locals
        if type(source) is str:
            code = self.table.get(source)
            if type(code) is CodeType:
                self.hits += 1
            else:
                # dont_inherit: not this module's ``from __future__ import annotations``, under
                # which the methods' annotations would stay strings (``inspect.signature``)
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.table[source] = code
                self.misses += 1
            self.used.add(source)
            source = code
        builtins.exec(source, globals, locals)

    def lookup(self, key: Any) -> Any:
        """What ``keep`` stored under ``key`` (this run or an earlier one), else None."""
        value = self.table.get(key)
        if value is not None:
            self.hits += 1
            self.used.add(key)
        return value

    def keep(self, key: Any, value: Any) -> None:
        """Store ``value`` (something ``marshal`` can write) under ``key`` for later runs."""
        self.table[key] = value
        self.misses += 1
        self.used.add(key)

    def save(self) -> None:
        """Write the table if this process compiled something new (atomically; errors ignored:
        the table is only a cache)."""
        if not self.misses or sys.dont_write_bytecode:
            return
        table = self.table
        if len(table) > MAX_ENTRIES:  # tuple(): a thread may still be making classes
            table = {text: table[text] for text in tuple(self.used)}
        scratch = f"{self.path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(scratch, "wb") as out:
                out.write(marshal.dumps(table))
            os.replace(scratch, self.path)
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                os.unlink(scratch)


def _read(path: str) -> dict[Any, object]:
    try:
        with open(path, "rb") as source:
            table = marshal.loads(source.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return table if type(table) is dict else {}


def install(tau_home: str) -> CodeTable:
    """Route the dataclasses module's ``exec`` through a table kept under ``tau_home``, and
    write the table back at exit. Call it before the modules whose classes it should serve
    are imported; classes made before are unaffected."""
    import atexit
    import dataclasses

    table = CodeTable(cache_file(tau_home))
    dataclasses.exec = table.exec  # type: ignore[attr-defined]  # found before the builtin
    atexit.register(table.save)
    return table
