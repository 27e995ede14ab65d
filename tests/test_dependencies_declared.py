"""Every third-party package that src/ imports is declared in pyproject.toml.

A package that is only installed because something else depends on it (rich under textual,
anyio under mcp) can vanish with that other package's next release; Tau must name what it
imports. The test reads every import statement of src/ (inside functions and under
``if TYPE_CHECKING:`` too), keeps those outside the standard library and Tau's own packages,
and finds the distribution that provides each in the installed environment.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
OWN = {"tau_agent", "tau_ai", "tau_coding"}


def imported_top_levels(root: Path) -> dict[str, set[str]]:
    """Top-level module names imported anywhere under ``root``, each with the files importing it."""
    found: dict[str, set[str]] = {}
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                found.setdefault(name.partition(".")[0], set()).add(str(path.relative_to(root)))
    return found


def third_party(imports: dict[str, set[str]]) -> dict[str, set[str]]:
    return {
        name: files
        for name, files in imports.items()
        if name not in sys.stdlib_module_names and name not in OWN and name != "__future__"
    }


def _normalized(requirement: str) -> str:
    """PEP 503 name of a requirement line: ``Pillow>=10`` -> ``pillow``."""
    name = re.split(r"[\s<>=!~;\[(]", requirement.strip(), maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def declared_distributions(pyproject: Path) -> set[str]:
    """Runtime dependencies and every extra's, normalised."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    lines = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        lines.extend(extra)
    return {_normalized(line) for line in lines}


def test_the_import_walk_sees_packages_tau_is_known_to_use() -> None:
    modules = third_party(imported_top_levels(SRC))
    assert {"httpx", "msgspec", "orjson", "textual", "rich"} <= modules.keys()
    assert "json" not in modules and "tau_agent" not in modules


def test_requirement_names_are_normalised() -> None:
    assert _normalized("Pillow>=10.1") == "pillow"
    assert _normalized("markdown_it.py [plugins] >=3") == "markdown-it-py"
    assert _normalized("types-Pygments") == "types-pygments"


# Optional extras' packages that CI need not install (their code is reached through a seam in tests):
# module -> the distribution an extra must declare.
OPTIONAL = {"azure": "azure-identity", "google": "google-auth"}


def test_every_imported_third_party_package_is_declared_in_pyproject() -> None:
    declared = declared_distributions(ROOT / "pyproject.toml")
    providers = packages_distributions()
    undeclared = []
    for module, files in sorted(third_party(imported_top_levels(SRC)).items()):
        distributions = {_normalized(d) for d in providers.get(module, [])}
        # An optional extra declared for it is enough: absent, or sharing a namespace package
        # (``google`` is also protobuf's when ray or opentelemetry brought that in).
        if OPTIONAL.get(module) in declared:
            continue
        if not distributions:
            undeclared.append(f"{module} (imported by {min(files)}) is not installed by any distribution")
        elif not distributions & declared:
            wanted = " or ".join(sorted(distributions))
            undeclared.append(f"{module} (imported by {min(files)}): declare {wanted} in pyproject.toml")
    assert not undeclared, "\n".join(undeclared)
