"""tau install/remove/update/list against real local git repositories, directories and a
locally served wheel index (file://): no network."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tau_coding.app.extension_setup import discover
from tau_coding.config.paths import TauPaths
from tau_coding.extensions.trust import TrustStore
from tau_coding.packages.cli import main


class Tau:
    def __init__(self, tmp_path: Path) -> None:
        self.home = tmp_path / "home"
        self.cwd = tmp_path / "project"
        self.cwd.mkdir(parents=True, exist_ok=True)
        self.environ = {"TAU_HOME": str(self.home), "HOME": str(tmp_path)}
        self.paths = TauPaths.from_env(self.environ, self.cwd)

    def __call__(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        code = main(list(argv), environ=self.environ, cwd=self.cwd, out=out, err=err)
        return code, out.getvalue(), err.getvalue()

    def settings(self, project: bool = False) -> dict[str, object]:
        path = self.paths.project_settings if project else self.paths.user_settings
        return dict(json.loads(path.read_text()))

    def extension_names(self, *, trusted: bool = False) -> list[str]:
        warnings: list[str] = []
        found = discover(self.paths, [], trusted=trusted, everything=True, warn=warnings.append)
        return [s.name for s in found if s.origin == "package"]


def make_package(root: Path, names: tuple[str, ...] = ("hello",), manifest: str | None = None) -> Path:
    (root / "extensions").mkdir(parents=True)
    for name in names:
        (root / "extensions" / f"{name}.py").write_text(f"def activate(tau):\n    tau.notify({name!r})\n")
    if manifest is not None:
        (root / "pyproject.toml").write_text(manifest)
    return root


def git(repo: Path, *args: str) -> str:
    command = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def test_install_a_local_directory_lists_it_and_its_extensions_load(tmp_path: Path) -> None:
    tau = Tau(tmp_path)
    package = make_package(tmp_path / "pkg", ("hello", "other"))
    code, out, err = tau("install", str(package))
    assert (code, err) == (0, "") and "2 extensions" in out
    assert tau.settings()["packages"] == [str(package.resolve())]
    assert sorted(tau.extension_names()) == ["hello", "other"]
    code, out, _ = tau("list")
    assert code == 0 and str(package.resolve()) in out and "not installed" not in out
    assert tau("remove", str(package))[0] == 0
    assert tau.settings()["packages"] == [] and package.is_dir()  # a local directory is never deleted
    assert tau.extension_names() == []


def test_a_pyproject_tool_tau_table_declares_the_extensions(tmp_path: Path) -> None:
    tau = Tau(tmp_path)
    package = make_package(
        tmp_path / "pkg", ("hello", "hidden"), '[tool.tau]\nextensions = ["extensions/hello.py"]\n'
    )
    tau("install", str(package))
    assert tau.extension_names() == ["hello"]


def test_pi_object_filters_narrow_what_a_package_loads(tmp_path: Path) -> None:
    tau = Tau(tmp_path)
    package = make_package(tmp_path / "pkg", ("a", "b", "c"))
    tau.paths.user_settings.parent.mkdir(parents=True)
    entry = {"source": str(package), "extensions": ["extensions/*.py", "!extensions/b.py"]}
    tau.paths.user_settings.write_text(json.dumps({"packages": [entry]}))
    assert sorted(tau.extension_names()) == ["a", "c"]
    entry["extensions"] = []
    tau.paths.user_settings.write_text(json.dumps({"packages": [entry]}))
    assert tau.extension_names() == []


def test_install_from_a_git_repository_at_a_ref_and_update_follows_the_branch(tmp_path: Path) -> None:
    tau = Tau(tmp_path)
    repo = make_package(tmp_path / "repo", ("first",))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "one")
    git(repo, "tag", "v1")
    (repo / "extensions" / "second.py").write_text("def activate(tau):\n    pass\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "two")

    code, _, err = tau("install", f"git:{repo}@v1")
    assert (code, err) == (0, ""), err
    assert tau.extension_names() == ["first"]  # the tag, not the branch's head
    assert tau("install", f"git:{repo}@main")[0] == 0
    assert sorted(tau.extension_names()) == ["first", "second"]

    (repo / "extensions" / "third.py").write_text("def activate(tau):\n    pass\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "three")
    code, _, err = tau("update")
    assert code == 0, err
    assert sorted(tau.extension_names()) == ["first", "second", "third"]
    code, _, _ = tau("remove", f"git:{repo}@main")
    assert code == 0 and not (tau.home / "packages" / "git" / "repo").exists()


def test_a_bad_source_or_a_failing_clone_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    tau = Tau(tmp_path)
    code, _, err = tau("install", f"git:{tmp_path / 'no-repo'}@v1")
    assert code == 1 and err.startswith("tau install: git clone") and err.count("\n") == 1
    code, _, err = tau("install", "https://example.invalid/page")
    assert code == 1 and "git repository" in err
    assert not tau.paths.user_settings.exists()


def test_project_packages_need_a_trusted_project(tmp_path: Path) -> None:
    tau = Tau(tmp_path)
    package = make_package(tmp_path / "pkg")
    code, _, err = tau("install", "-l", str(package))
    assert code == 1 and "not trusted" in err and not tau.paths.project_settings.exists()
    TrustStore(tau.home).trust(tau.cwd)
    assert tau("install", "-l", str(package))[0] == 0
    assert tau.settings(project=True)["packages"] == [str(package.resolve())]
    assert tau.extension_names(trusted=True) == ["hello"]
    assert tau.extension_names(trusted=False) == []  # an untrusted project's list is not read


def _wheel(directory: Path, name: str, version: str) -> Path:
    module = name.replace("-", "_")
    dist_info = f"{module}-{version}.dist-info"
    files = {
        f"{module}/__init__.py": "def activate(tau):\n    tau.notify('from a wheel')\n",
        f"{dist_info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{dist_info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{dist_info}/entry_points.txt": f"[tau.extensions]\n{module} = {module}\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = "\n".join(record) + "\n"
    wheel = directory / f"{module}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def test_install_a_pypi_package_from_a_local_index_into_tau_own_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # the package's directory joins it
    tau = Tau(tmp_path)
    project_dir = tmp_path / "index" / "tau-wheel-hello"
    project_dir.mkdir(parents=True)
    wheel = _wheel(project_dir, "tau-wheel-hello", "1.0")
    (project_dir / "index.html").write_text(f'<a href="{wheel.name}">{wheel.name}</a>\n')
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_INDEX_URL", (tmp_path / "index").as_uri())
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    code, _, err = tau("install", "tau-wheel-hello")
    assert (code, err) == (0, ""), err
    assert tau.settings()["packages"] == ["pypi:tau-wheel-hello"]
    target = tau.home / "packages" / "pypi" / "tau-wheel-hello"
    assert (target / "tau_wheel_hello" / "__init__.py").is_file()
    assert tau.extension_names() == ["tau_wheel_hello"]
    import importlib.util

    assert importlib.util.find_spec("tau_wheel_hello") is not None  # reachable only via Tau's directory
    code, _, _ = tau("remove", "pypi:tau-wheel-hello")
    assert code == 0 and not target.exists()
