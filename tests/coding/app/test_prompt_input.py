"""Building a prompt from words, @files and stdin."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_coding.app.prompt_input import PromptInputError, build_prompts, read_piped_stdin

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32


def test_text_files_are_inlined_and_images_attached_after_stdin(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("keep it short\n")
    (tmp_path / "shot.png").write_bytes(PNG)
    [(text, images)] = build_prompts(["@notes.md", "@shot.png", "explain"], "log line\n", tmp_path)
    assert text == 'log line\n\n<file name="notes.md">\nkeep it short\n</file>\n\nexplain'
    assert [i.mime_type for i in images] == ["image/png"]


def test_each_message_is_its_own_prompt_and_attachments_go_with_the_first(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("A\n")
    prompts = build_prompts(["Read it", "@a.txt", "Now summarise", "Thanks"], None, tmp_path)
    assert [text for text, _ in prompts] == [
        '<file name="a.txt">\nA\n</file>\n\nRead it',
        "Now summarise",
        "Thanks",
    ]


def test_nothing_to_send_is_no_prompt(tmp_path: Path) -> None:
    assert build_prompts([], "  \n", tmp_path) == []


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.txt", None, "cannot attach missing.txt: no such file"),
        ("blob.bin", b"\0\1\2binary", "cannot attach blob.bin: it is a binary file"),
    ],
)
def test_unattachable_files_are_one_line_errors(
    tmp_path: Path, name: str, content: bytes | None, message: str
) -> None:
    if content is not None:
        (tmp_path / name).write_bytes(content)
    with pytest.raises(PromptInputError) as info:
        build_prompts([f"@{name}"], None, tmp_path)
    assert str(info.value) == message


def test_piped_stdin_with_invalid_utf8_is_read_with_replacements(tmp_path: Path) -> None:
    source = tmp_path / "in.bin"
    source.write_bytes(b"caf\xe9 ok")
    with open(source, "rb") as stream:
        assert read_piped_stdin(stream) == "caf\ufffd ok"


def test_stdin_over_the_limit_is_an_error_after_reading_only_the_limit(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(b"x" * 101)
    with open(source, "rb") as stream, pytest.raises(PromptInputError):
        read_piped_stdin(stream, limit=100)
