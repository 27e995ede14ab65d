"""Module-level regular expressions compiled once per interpreter version and kept between runs.

``re.compile`` parses a pattern and translates it into the regex engine's code in pure Python;
the ~45 patterns that the modules of a ``tau -p`` run compile in their bodies (Tau's and the
standard library's: argparse's gettext, platform, logging, ...) cost about 6 % of the run's
instructions (callgrind: 623 M → 587 M). ``install`` routes ``re``'s compiler through the dataclass code table
(dataclass_code.py, one file read per run): a pattern compiled by a module's body is looked up by
its text and flags and handed to the engine (``_sre.compile``) with the code a previous run
made, exactly the arguments ``re`` itself would pass, so the pattern behaves as one compiled
without the table. Patterns compiled later, inside functions (a user's ``grep`` pattern, a
glob's translation), are compiled as usual and not kept, so the table does not grow with them.
"Module level" includes class bodies (``textwrap``, ``logging`` compile theirs there).

This relies on the standard library's ``re._compiler`` and ``re._parser``, whose ``compile`` is
the same in 3.11, 3.12 and 3.13 (``CHECKED_VERSIONS``; other versions keep ``re`` untouched);
the table is per interpreter version, and any pattern the shortcut does not cover (not a str or
bytes, a debug flag) takes the ordinary path.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows the name
if TYPE_CHECKING:
    from typing import Any

    from tau_coding.common.dataclass_code import CodeTable

CHECKED_VERSIONS = ((3, 11), (3, 12), (3, 13))  # same compile(), _code() and _sre.compile() arguments
_DEBUG = 128  # re.DEBUG: the compiler prints the code; never taken from the table
_CALLER = 3  # compile ← re._compile ← re.compile (or re.match, re.sub, ...) ← the caller
_CO_OPTIMIZED = 0x1  # inspect.CO_OPTIMIZED: set for functions' code, not a module's or a class's


def install(table: CodeTable) -> None:
    """Compile module-level patterns through ``table`` from now on (on the interpreter versions
    whose ``re`` internals this was checked against; elsewhere ``re`` is left as it is)."""
    if sys.version_info[:2] not in CHECKED_VERSIONS:
        return
    import _sre  # type: ignore[import-not-found]
    import re
    from re import _compiler, _parser  # type: ignore[attr-defined]

    ordinary = _compiler.compile
    translate = _compiler._code

    def compile(pattern: Any, flags: int = 0) -> re.Pattern[Any]:
        if type(pattern) not in (str, bytes) or flags & _DEBUG or not _in_module_body():
            return ordinary(pattern, flags)  # type: ignore[no-any-return]
        key = ("re", pattern, flags)
        made = table.lookup(key)
        if made is None:
            parsed = _parser.parse(pattern, flags)
            state = parsed.state
            indexgroup: list[str | None] = [None] * state.groups
            for name, index in state.groupdict.items():
                indexgroup[index] = name
            # plain ints: the compiler's opcodes are an int subclass marshal cannot write
            code = [int(op) for op in translate(parsed, flags)]
            made = (
                int(flags | state.flags),
                code,
                state.groups - 1,
                dict(state.groupdict),
                tuple(indexgroup),
            )
            table.keep(key, made)
        final_flags, code, groups, groupindex, indexgroup_ = made
        return _sre.compile(pattern, final_flags, code, groups, groupindex, indexgroup_)  # type: ignore[no-any-return]

    _compiler.compile = compile


def _in_module_body() -> bool:
    """Whether the pattern is compiled by a module's or a class's body (run once per import),
    or by a constructor such a body calls (an object made at import, a module's constant:
    Textual's CSS tokenizer builds its 13 patterns in ``Expect.__init__``, ~4 % of the
    instructions until the TUI's first paint); not by any other function (whose patterns may
    be anyone's: a search, a glob)."""
    try:
        caller = sys._getframe(_CALLER + 1)
        if caller.f_code.co_name == "__init__" and caller.f_back is not None:
            caller = caller.f_back
        return not caller.f_code.co_flags & _CO_OPTIMIZED
    except ValueError:  # a shallower stack: no caller to judge
        return False
