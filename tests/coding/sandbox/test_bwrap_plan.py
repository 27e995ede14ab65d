"""bwrap_argv: the bubblewrap command line for a policy, option by option and in order."""

from __future__ import annotations

from pathlib import Path

from tau_coding.sandbox.bwrap import bwrap_argv
from tau_coding.sandbox.policy import SandboxPolicy

PROJECT = Path("/work/project")
POLICY = SandboxPolicy(
    project=PROJECT,
    writable=(PROJECT, Path("/tmp"), Path("/opt/cache")),
    hidden=(Path("/home/u/.ssh"), Path("/home/u/.tau")),
    hidden_files=(Path("/home/u/.netrc"),),
    protected=(PROJECT / ".tau", PROJECT / ".git/hooks"),
)


def _pairs(argv: list[str], option: str, arity: int) -> list[tuple[str, ...]]:
    return [tuple(argv[i + 1 : i + 1 + arity]) for i, word in enumerate(argv) if word == option]


def test_the_command_runs_last_in_its_directory_after_a_double_dash() -> None:
    argv = bwrap_argv(["/bin/bash", "-c", "echo hi"], PROJECT / "src", POLICY, bwrap="/usr/bin/bwrap")
    assert argv[0] == "/usr/bin/bwrap"
    assert argv[-5:] == [str(PROJECT / "src"), "--", "/bin/bash", "-c", "echo hi"]
    assert argv[-6] == "--chdir"


def test_root_read_only_fresh_dev_and_proc_first() -> None:
    argv = bwrap_argv(["true"], PROJECT, POLICY)
    assert argv[1:10] == [
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--unshare-pid",
        "--unshare-ipc",
    ]
    for option in ("--die-with-parent", "--new-session"):
        assert option in argv


def test_network_is_unshared_unless_allowed() -> None:
    assert "--unshare-net" in bwrap_argv(["true"], PROJECT, POLICY)
    open_net = SandboxPolicy(project=PROJECT, writable=(PROJECT,), network=True)
    assert "--unshare-net" not in bwrap_argv(["true"], PROJECT, open_net)


def test_secrets_are_covered_dirs_by_tmpfs_files_by_dev_null() -> None:
    argv = bwrap_argv(["true"], PROJECT, POLICY)
    assert _pairs(argv, "--tmpfs", 1) == [("/home/u/.ssh",), ("/home/u/.tau",)]
    assert ("/dev/null", "/home/u/.netrc") in _pairs(argv, "--ro-bind", 2)


def test_project_bound_writable_extras_only_if_they_exist() -> None:
    argv = bwrap_argv(["true"], PROJECT, POLICY)
    assert _pairs(argv, "--bind", 2) == [(str(PROJECT), str(PROJECT))]
    assert _pairs(argv, "--bind-try", 2) == [("/tmp", "/tmp"), ("/opt/cache", "/opt/cache")]


def test_mount_order_writable_then_secrets_then_protected() -> None:
    argv = bwrap_argv(["true"], PROJECT, POLICY)
    last_bind = max(i for i, w in enumerate(argv) if w in ("--bind", "--bind-try"))
    first_hide = argv.index("--tmpfs")
    last_hide = argv.index("/home/u/.netrc")
    first_protect = argv.index("--ro-bind-try")
    assert last_bind < first_hide < last_hide < first_protect
    assert _pairs(argv, "--ro-bind-try", 2) == [
        (str(PROJECT / ".tau"),) * 2,
        (str(PROJECT / ".git/hooks"),) * 2,
    ]


def test_a_protected_path_inside_a_hidden_one_stays_hidden() -> None:
    home = Path("/home/u")  # the project is the home directory: its .tau is TAU_HOME
    policy = SandboxPolicy(
        project=home, writable=(home,), hidden=(home / ".tau",), protected=(home / ".tau",)
    )
    argv = bwrap_argv(["true"], home, policy)
    assert "--ro-bind-try" not in argv and _pairs(argv, "--tmpfs", 1) == [("/home/u/.tau",)]
