"""What a package source string means: a PyPI requirement, a git URL with a ref, or a path.

    tau install tau-jokes            a PyPI requirement (``pypi:tau-jokes==1.2`` says so explicitly)
    tau install git:URL[@REF]        a git repository (``git+URL[@REF]`` too, or a URL ending ``.git``)
    tau install ./my-package         a local directory, used where it is (never copied)

Pure: parsing reads no file except to tell whether a bare word names an existing directory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Kind = Literal["pypi", "git", "local"]
_REQUIREMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?\s*([<>=!~].*)?$")


class SourceError(ValueError):
    """A source string that is none of the three kinds; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class PackageSource:
    kind: Kind
    spec: str  # the requirement, the git URL, or the absolute directory
    ref: str | None = None  # git only: a branch, tag or commit

    @property
    def key(self) -> str:
        """How the ``packages`` setting records it (what ``tau remove`` matches)."""
        if self.kind == "git":
            return f"git:{self.spec}" + (f"@{self.ref}" if self.ref else "")
        if self.kind == "pypi":
            return f"pypi:{self.spec}"
        return self.spec

    @property
    def slug(self) -> str:
        """A directory name for what is fetched (stable for one source)."""
        base = self.spec.rstrip("/").rsplit("/", 1)[-1]
        if self.kind == "pypi":
            base = re.split(r"[\[<>=!~ ]", self.spec, maxsplit=1)[0]
        base = base.removesuffix(".git")
        return re.sub(r"[^A-Za-z0-9._-]", "_", base).lower() or "package"


def parse_source(text: str, cwd: Path) -> PackageSource:
    """The source ``text`` names (relative paths against ``cwd``); raises SourceError."""
    raw = text.strip()
    if not raw:
        raise SourceError("empty package source")
    if raw.startswith("git:") or raw.startswith("git+"):
        return _git(raw[4:])
    if raw.startswith("pypi:"):
        return _pypi(raw[5:])
    if raw.startswith(("./", "../", "/", "~")) or raw in (".", ".."):
        return _local(raw, cwd)
    if "://" in raw or raw.startswith("git@"):
        url, _, _ = raw.rpartition("@") if _has_ref(raw) else (raw, "", "")
        if (url or raw).endswith(".git") or raw.startswith("git@"):
            return _git(raw)
        raise SourceError(f"{raw}: a URL must be a git repository (git:URL or ending in .git)")
    if (cwd / raw).is_dir():
        return _local(raw, cwd)
    return _pypi(raw)


def _has_ref(raw: str) -> bool:
    tail = raw.rsplit("/", 1)[-1]
    return "@" in tail


def _git(rest: str) -> PackageSource:
    url, ref = rest, None
    if _has_ref(rest):
        url, _, ref = rest.rpartition("@")
    if not url:
        raise SourceError(f"git:{rest}: no repository URL")
    return PackageSource("git", url, ref or None)


def _pypi(requirement: str) -> PackageSource:
    if not _REQUIREMENT.match(requirement.strip()):
        raise SourceError(f"{requirement}: not a PyPI requirement, a git URL or an existing directory")
    return PackageSource("pypi", requirement.strip())


def _local(raw: str, cwd: Path) -> PackageSource:
    path = (cwd / Path(raw).expanduser()).resolve()
    if not path.is_dir():
        raise SourceError(f"{raw}: no such directory")
    return PackageSource("local", str(path))
