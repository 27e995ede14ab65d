"""sandbox_policy: what settings turn into; the policy's notion of writable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tau_coding.sandbox.policy import SandboxPolicy, sandbox_policy


def _get(values: dict[str, Any]) -> Any:
    return lambda key, default=None: values.get(key, default)


def _policy(tmp_path: Path, values: dict[str, Any], *, forced: bool = False) -> SandboxPolicy | None:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    temp = tmp_path / "tmp"
    temp.mkdir(exist_ok=True)
    return sandbox_policy(
        _get(values), project, home=home, tau_home=home / ".tau", forced=forced, temp=[temp]
    )


def test_no_policy_unless_enabled_or_forced(tmp_path: Path) -> None:
    assert _policy(tmp_path, {}) is None
    assert _policy(tmp_path, {"sandbox.enabled": False}) is None
    assert _policy(tmp_path, {"sandbox.enabled": "yes"}) is None  # only a real true enables it
    assert _policy(tmp_path, {}, forced=True) is not None
    assert _policy(tmp_path, {"sandbox.enabled": False}, forced=True) is not None


def test_project_and_temp_are_writable_network_off_not_required_by_default(tmp_path: Path) -> None:
    policy = _policy(tmp_path, {"sandbox.enabled": True})
    assert policy is not None
    assert policy.writable == ((tmp_path / "project").resolve(), (tmp_path / "tmp").resolve())
    assert policy.network is False and policy.required is False


def test_network_and_required_follow_settings(tmp_path: Path) -> None:
    policy = _policy(tmp_path, {"sandbox.enabled": True, "sandbox.network": True, "sandbox.required": True})
    assert policy is not None and policy.network and policy.required


def test_writable_paths_relative_to_the_project_and_under_home(tmp_path: Path) -> None:
    values = {"sandbox.enabled": True, "sandbox.writablePaths": ["build/out", "~/.cache/pip", "/opt/x", " "]}
    policy = _policy(tmp_path, values)
    assert policy is not None
    assert policy.writable[2:] == (
        (tmp_path / "project" / "build" / "out").resolve(),
        (tmp_path / "home" / ".cache" / "pip").resolve(),
        Path("/opt/x"),
    )


def test_existing_secrets_are_hidden_dirs_and_files_apart(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for name in (".ssh", ".aws", ".config/gcloud", ".tau"):
        (home / name).mkdir(parents=True)
    (home / ".netrc").write_text("machine x password y\n")
    policy = _policy(tmp_path, {"sandbox.enabled": True})
    assert policy is not None
    assert set(policy.hidden) == {(home / n).resolve() for n in (".ssh", ".aws", ".config/gcloud", ".tau")}
    assert policy.hidden_files == ((home / ".netrc").resolve(),)  # .gnupg, .npmrc… do not exist here


def test_a_secret_dir_that_holds_the_project_is_not_hidden(tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = home / ".tau" / "work"
    project.mkdir(parents=True)
    policy = sandbox_policy(_get({}), project, home=home, tau_home=home / ".tau", forced=True, temp=[])
    assert policy is not None and policy.hidden == ()


def test_protected_paths_inside_the_project_are_not_writable(tmp_path: Path) -> None:
    policy = _policy(tmp_path, {"sandbox.enabled": True})
    assert policy is not None
    project = policy.project
    assert policy.is_writable(project / "src" / "a.py")
    assert policy.is_writable(project / ".git" / "objects" / "ab")
    assert not policy.is_writable(project / ".git" / "hooks" / "pre-commit")
    assert not policy.is_writable(project / ".git" / "config")
    assert not policy.is_writable(project / ".tau" / "settings.json")
    assert not policy.is_writable(tmp_path / "elsewhere")
    assert policy.is_writable((tmp_path / "tmp" / "x").resolve())
