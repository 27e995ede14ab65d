from __future__ import annotations

from pathlib import Path

from tau_agent.session.entries import SessionHeader
from tau_coding.config.paths import TauPaths
from tau_coding.session.store.paths import cwd_dir_name, session_dir, session_file_name


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
    def home(environ: dict[str, str]) -> Path:
        return TauPaths.from_env({"HOME": str(tmp_path), **environ}, tmp_path).tau_home

    assert home({}) == tmp_path / ".tau"
    assert home({"TAU_HOME": ""}) == tmp_path / ".tau"
    assert home({"TAU_HOME": str(tmp_path / "x")}) == tmp_path / "x"
    sessions = TauPaths.from_env({"HOME": str(tmp_path)}, tmp_path).sessions_dir
    assert session_dir(sessions, "/a/b") == tmp_path / ".tau" / "sessions" / "--a-b--"
