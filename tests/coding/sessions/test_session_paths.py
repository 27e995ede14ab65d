from __future__ import annotations

from pathlib import Path

from tau_agent.session.entries import SessionHeader
from tau_coding.sessions.paths import cwd_dir_name, session_dir, session_file_name, sessions_root, tau_home


def test_cwd_folder_names_follow_pis_rule() -> None:
    assert cwd_dir_name("/home/me/proj") == "--home-me-proj--"
    assert cwd_dir_name("C:\\Users\\me") == "--C--Users-me--"
    assert cwd_dir_name("/") == "----"


def test_session_file_names_are_the_header_time_and_id() -> None:
    header = SessionHeader(
        id="0f8fad5b-d9cb-469f-a165-70867728950e", timestamp="2025-01-02T03:04:05.678Z", cwd="/p"
    )
    assert session_file_name(header) == "2025-01-02T03-04-05-678Z_0f8fad5b-d9cb-469f-a165-70867728950e.jsonl"


def test_tau_home_comes_from_the_given_environment_or_the_home_folder(tmp_path: Path) -> None:
    assert tau_home({}, tmp_path) == tmp_path / ".tau"
    assert tau_home({"TAU_HOME": ""}, tmp_path) == tmp_path / ".tau"
    assert tau_home({"TAU_HOME": str(tmp_path / "x")}, tmp_path) == tmp_path / "x"
    assert session_dir(sessions_root(tmp_path), "/a/b") == tmp_path / "sessions" / "--a-b--"
