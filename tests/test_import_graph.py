"""No module of src/ imports itself in a circle, counting every import statement.

import-linter checks the layers (pyproject.toml); this test reads the source itself, so
imports inside functions and under ``if TYPE_CHECKING:`` count too: a circle hidden in a
function body is still a circle a reader has to untangle. It also checks that the parts of
``tau_coding`` (its first-level folders) form no circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def module_names(root: Path) -> dict[str, Path]:
    """Every module under ``root`` by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _known(name: str, modules: Mapping[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The modules of ``modules`` that ``name`` imports anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str | None] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(_known(alias.name, modules) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:  # ``from pkg import module`` imports the module
                targets.add(_known(f"{base}.{alias.name}", modules) or _known(base, modules))
    return {t for t in targets if t is not None and t != name}


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = module_names(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def part_graph(graph: Mapping[str, Iterable[str]], package: str) -> dict[str, set[str]]:
    """The first-level folders of ``package`` and which import which (the root module excluded)."""

    def part(module: str) -> str | None:
        pieces = module.split(".")
        return pieces[1] if pieces[0] == package and len(pieces) > 1 else None

    parts: dict[str, set[str]] = {}
    for source, targets in graph.items():
        origin = part(source)
        if origin is None:
            continue
        edges = parts.setdefault(origin, set())
        edges.update(p for p in map(part, targets) if p is not None and p != origin)
    return parts


def folder_graph(graph: Mapping[str, Iterable[str]], root: Path) -> dict[str, set[str]]:
    """Which folders import which: a module counts as the folder it sits in.

    A package's ``__init__`` belongs to its own folder; a ``__main__`` stands alone (it is the
    program, which nothing imports).
    """
    modules = module_names(root)

    def folder(module: str) -> str:
        path = modules[module]
        if path.name == "__init__.py" or path.name == "__main__.py":
            return module
        return module.rpartition(".")[0]

    folders: dict[str, set[str]] = {}
    for source, targets in graph.items():
        origin = folder(source)
        edges = folders.setdefault(origin, set())
        edges.update(f for f in map(folder, targets) if f != origin)
    return folders


def test_no_module_of_src_imports_itself_in_a_circle() -> None:
    assert circles(import_graph(SRC)) == []


def test_the_parts_of_tau_coding_form_no_circle() -> None:
    parts = part_graph(import_graph(SRC), "tau_coding")
    assert {"common", "session", "extensions", "modes", "tui", "app", "sdk"} <= set(parts)
    assert circles(parts) == []


def test_no_folder_of_src_is_in_a_circle_with_another() -> None:
    folders = folder_graph(import_graph(SRC), SRC)
    assert {"tau_coding.tui", "tau_coding.tui.widgets", "tau_coding.tui.shell"} <= set(folders)
    assert circles(folders) == []


def test_a_folder_circle_through_modules_that_form_no_module_circle_is_found(
    tmp_path: Path,
) -> None:
    package = tmp_path / "pkg"
    (package / "widgets").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "widgets" / "__init__.py").write_text("")
    (package / "state.py").write_text("X = 1\n")
    (package / "app.py").write_text("from pkg.widgets import view\n")
    (package / "widgets" / "view.py").write_text("from pkg.state import X\n")
    graph = import_graph(tmp_path)
    assert circles(graph) == []
    assert circles(folder_graph(graph, tmp_path)) == [["pkg", "pkg.widgets"]]


def test_a_circle_through_a_function_body_or_type_checking_import_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..c import C\n"
    )
    (package / "c.py").write_text("import pkg.a\nclass C: ...\n")
    graph = import_graph(tmp_path)
    assert circles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert circles(part_graph(graph, "pkg")) == [["a", "c", "sub"]]
