"""A bash command line, parsed into the simple commands it would run and what makes it risky.

The parser is tree-sitter's bash grammar (``tree-sitter-bash``, MIT, maintained by the
tree-sitter project, parses in C in ~10 us). bashlex was measured too: it is GPL-3 (Tau is MIT)
and pure Python (~20x slower), so it was not taken. Parses are cached by command text.

What a caller may rely on:

* ``commands`` holds every simple command the line may run, nested ones included (inside
  ``$(...)``, backticks, ``<(...)``, subshells, control structures, and the text given to
  ``eval``, ``sh -c`` and ``bash -c``), each as its words with quoting removed and leading
  ``NAME=value`` assignments dropped.
* ``risks`` is empty only when the line is a plain list of such commands: any substitution,
  ``eval``, ``sh -c``, function definition, computed command name, ANSI-C quoting, an
  assignment to a variable that changes what programs run (``PATH``, ``LD_PRELOAD``, ...), a
  redirection to a computed file, or a parse error adds one reason.
* ``writes`` lists the literal targets of output redirections (``>``, ``>>``, ``&>``...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

# Assignments that change which program runs or what it loads; a prefix like ``FOO=1`` is fine.
_DANGEROUS_VARIABLE = re.compile(
    r"^(PATH|IFS|ENV|BASH_ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|CDPATH|HOME|"
    r"LD_\w*|DYLD_\w*|PYTHON\w*|NODE_\w*|PERL\w*|RUBY\w*|GIT_\w*|\w*_OPTIONS|\w*_OPTS)$"
)
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "/bin/sh", "/bin/bash", "/usr/bin/bash"})
_OUTPUT_REDIRECTS = (">", ">>", "&>", "&>>", ">|", ">&")
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_MAX_DEPTH = 200


@dataclass(frozen=True, slots=True)
class SimpleCommand:
    """One command the line runs: its words, quoting removed; ``text`` joins them with spaces."""

    words: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True, slots=True)
class ParsedShell:
    """A command line's simple commands, its risks and its redirection targets (see the module
    docstring for what each holds)."""

    commands: tuple[SimpleCommand, ...]
    risks: tuple[str, ...]
    writes: tuple[str, ...]


_parser: Parser | None = None


def _get_parser() -> Parser:
    global _parser
    if _parser is None:
        import tree_sitter_bash
        from tree_sitter import Language, Parser

        _parser = Parser(Language(tree_sitter_bash.language()))
    return _parser


@lru_cache(maxsize=2048)
def parse_shell(command: str) -> ParsedShell:
    """The commands, risks and redirection targets of ``command`` (cached; never raises)."""
    walker = _Walker()
    try:
        walker.line(command, 0)
    except RecursionError:
        walker.risks.append("nested too deeply to read")
    return ParsedShell(tuple(walker.commands), tuple(dict.fromkeys(walker.risks)), tuple(walker.writes))


class _Walker:
    def __init__(self) -> None:
        self.commands: list[SimpleCommand] = []
        self.risks: list[str] = []
        self.writes: list[str] = []

    def line(self, text: str, depth: int) -> None:
        if depth > 3:
            self.risks.append("shell text nested too deeply to read")
            return
        tree = _get_parser().parse(text.encode("utf-8", "surrogatepass"))
        if tree.root_node.has_error:
            self.risks.append("a command line that does not parse")
        self.node(tree.root_node, depth, 0)

    def node(self, node: Node, depth: int, level: int) -> None:
        if level > _MAX_DEPTH:
            raise RecursionError
        kind = node.type
        if kind == "command":
            self.command(node, depth, level)
            return
        if kind in ("command_substitution", "process_substitution"):
            self.risks.append(kind.replace("_", " "))
        elif kind == "function_definition":
            self.risks.append("a function definition")
        elif kind == "ansi_c_string":
            self.risks.append("ANSI-C quoting ($'...')")
        elif kind == "variable_assignment":
            self.assignment(node)
        elif kind == "file_redirect":
            self.redirect(node)
        elif kind == "ERROR":
            self.risks.append("a command line that does not parse")
        for child in node.named_children:
            self.node(child, depth, level + 1)

    def assignment(self, node: Node) -> None:
        name = node.child_by_field_name("name")
        if name is not None and _DANGEROUS_VARIABLE.match(_text(name)):
            self.risks.append(f"an assignment to {_text(name)}")

    def redirect(self, node: Node) -> None:
        operator = next((c.type for c in node.children if not c.is_named), "")
        target = node.child_by_field_name("destination")
        if operator not in _OUTPUT_REDIRECTS or target is None or target.type == "number":
            return
        value, dynamic = literal(target)
        if dynamic:
            self.risks.append("a redirection to a computed file name")
        elif not (operator == ">&" and value.isdigit()):
            self.writes.append(value)

    def command(self, node: Node, depth: int, level: int) -> None:
        words: list[str] = []
        for child in node.named_children:
            if child.type == "command_name":
                value, dynamic = literal(child.named_children[0] if child.named_children else child)
                if dynamic:
                    self.risks.append("a computed command name")
                words.append(value)
            elif child.type not in ("comment", "variable_assignment", "file_redirect", "herestring_redirect"):
                words.append(literal(child)[0])
            self.node(child, depth, level + 1)
        if not words:
            return
        self.commands.append(SimpleCommand(tuple(words)))
        name = words[0].rsplit("/", 1)[-1] if words[0].startswith("/") else words[0]
        if name == "eval":
            self.risks.append("eval")
            self.line(" ".join(words[1:]), depth + 1)
        elif name in SHELLS or words[0] in SHELLS:
            script = _dash_c(words[1:])
            if script is not None:
                self.risks.append(f"{name} -c")
                self.line(script, depth + 1)


def _dash_c(arguments: list[str]) -> str | None:
    """The script of ``sh -c SCRIPT`` (also ``-ec``, ``-xc``...), or None."""
    for index, word in enumerate(arguments):
        if word.startswith("-") and not word.startswith("--") and "c" in word[1:]:
            return arguments[index + 1] if index + 1 < len(arguments) else ""
        if not word.startswith("-"):
            return None
    return None


def _text(node: Node) -> str:
    data: Any = node.text
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else ""


def literal(node: Node) -> tuple[str, bool]:
    """A word as the shell would pass it, and whether it depends on something computed."""
    kind = node.type
    if kind in ("word", "number", "command_name"):
        return _ESCAPE.sub(r"\1", _text(node)), False
    if kind == "raw_string":
        return _text(node)[1:-1], False
    if kind in ("string", "concatenation"):
        parts: list[str] = []
        dynamic = False
        if kind == "string" and not node.named_children:
            return _text(node)[1:-1], False
        for child in node.named_children if kind == "concatenation" else node.children:
            if child.type == '"':
                continue
            if child.type == "string_content":
                parts.append(re.sub(r'\\([\\"$`])', r"\1", _text(child)))
                continue
            value, more = literal(child)
            parts.append(value)
            dynamic = dynamic or more
        return "".join(parts), dynamic
    return _text(node), True
