"""Finding and importing extensions: files, packages, ``-e PATH`` and entry points.

An extension is a Python module with ``activate(tau)``: a ``*.py`` file, or a directory with
an ``__init__.py``, in ``TAU_HOME/extensions`` or a trusted project's ``.tau/extensions``, a
path given with ``-e``, or an installed distribution declaring an entry point in the group
``tau.extensions``. Discovery reads directory listings only; nothing is imported until the
host activates a source. Names starting with ``_`` or ``.`` are skipped.
"""

from __future__ import annotations

import importlib.util
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from tau_coding.extensions.entry_points import ENTRY_POINT_GROUP, may_have_entry_points

if TYPE_CHECKING:
    from importlib import metadata

Origin = Literal["cli", "project", "user", "package"]


@dataclass(frozen=True, slots=True)
class ExtensionSource:
    name: str
    origin: Origin
    location: str  # a path, or "package:<distribution>" for an entry point
    path: Path | None = None
    entry_point: metadata.EntryPoint | None = None


def from_path(path: Path, origin: Origin) -> ExtensionSource | None:
    """A source for a ``.py`` file or a package directory; ``None`` if it is neither."""
    if path.is_dir() and (path / "__init__.py").is_file():
        return ExtensionSource(path.name, origin, str(path), path / "__init__.py")
    if path.is_file() and path.suffix == ".py":
        return ExtensionSource(path.stem, origin, str(path), path)
    return None


def in_directory(directory: Path, origin: Origin) -> list[ExtensionSource]:
    """Every extension directly in ``directory`` (sorted by name); a missing directory has none."""
    try:
        entries = sorted(directory.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    for entry in entries:
        if entry.name.startswith(("_", ".")):
            continue
        source = from_path(entry, origin)
        if source is not None:
            found.append(source)
    return found


def from_entry_points(path: Sequence[str] | None = None) -> list[ExtensionSource]:
    """Installed distributions' ``tau.extensions`` entry points (``path`` defaults to sys.path)."""
    if not may_have_entry_points(path):
        return []
    from importlib import metadata

    found = []
    seen: set[str] = set()
    for dist in metadata.distributions(path=list(path) if path is not None else sys.path):
        for point in dist.entry_points:
            if point.group != ENTRY_POINT_GROUP or point.name in seen:
                continue
            seen.add(point.name)
            name = dist.metadata["Name"] or point.name
            found.append(ExtensionSource(point.name, "package", f"package:{name}", entry_point=point))
    return found


def find_activate(source: ExtensionSource) -> Any:
    """The source's ``activate`` function (importing it); raises what the import raises.

    An entry point may name a module (which must define ``activate``) or the function itself.
    """
    if source.entry_point is not None:
        loaded = source.entry_point.load()
        if not isinstance(loaded, ModuleType):
            return _callable(loaded)
        module = loaded
    else:
        module = import_path(source)
    return _callable(getattr(module, "activate", None))


def _callable(value: Any) -> Any:
    if not callable(value):
        raise TypeError("has no activate(tau) function")
    return value


def import_path(source: ExtensionSource) -> ModuleType:
    """Import a file or package afresh under a private name (a reload gets new code)."""
    assert source.path is not None
    digest = format(zlib.crc32(str(source.path).encode()), "08x")  # distinct names for distinct files
    module_name = f"tau_extension_{source.name.replace('-', '_')}_{digest}"
    package_dir = [str(source.path.parent)] if source.path.name == "__init__.py" else None
    spec = importlib.util.spec_from_file_location(
        module_name, source.path, submodule_search_locations=package_dir
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {source.path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    return module
