from __future__ import annotations

import base64
import io
import os
from pathlib import Path

from PIL import Image

from tau_agent.content import ImageContent, TextContent
from tau_agent.tools import AgentTool
from tau_coding.tools import ToolSettings, create_coding_tools

from .conftest import call


def _lines(n: int, width: int = 0) -> str:
    return "".join(f"line {i}{'x' * width}\n" for i in range(1, n + 1))


async def test_read_returns_a_small_file_whole(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    out = await call(tools["read"], path="a.txt")
    assert not out.is_error and out.text == "one\ntwo"


async def test_read_accepts_at_prefixed_and_absolute_paths(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "a.txt").write_text("x\n")
    assert (await call(tools["read"], path="@a.txt")).text == "x"
    assert (await call(tools["read"], path=str(tmp_path / "a.txt"))).text == "x"


async def test_read_head_truncates_at_the_line_budget_with_continuation(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "big.txt").write_text(_lines(2500))
    out = await call(tools["read"], path="big.txt")
    body, notice = out.text.rsplit("\n\n", 1)
    assert body.splitlines()[-1] == "line 2000" and len(body.splitlines()) == 2000
    assert notice == "[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]"
    rest = await call(tools["read"], path="big.txt", offset=2001)
    assert rest.text.splitlines()[0] == "line 2001" and rest.text.splitlines()[-1] == "line 2500"


async def test_read_head_truncates_at_the_byte_budget(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "wide.txt").write_text(_lines(1000, width=100))  # ~110 bytes a line
    out = await call(tools["read"], path="wide.txt")
    body, notice = out.text.rsplit("\n\n", 1)
    shown = len(body.splitlines())
    assert len(body.encode()) <= 50 * 1024 < len(body.encode()) + 120
    assert notice == f"[Showing lines 1-{shown} of 1000 (50.0KB limit). Use offset={shown + 1} to continue.]"


async def test_read_with_limit_says_how_many_lines_remain(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "a.txt").write_text(_lines(50))
    out = await call(tools["read"], path="a.txt", offset=10, limit=5)
    assert (
        out.text
        == "line 10\nline 11\nline 12\nline 13\nline 14\n\n[36 more lines in file. Use offset=15 to continue.]"
    )


async def test_read_offset_past_the_end_is_an_error(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "a.txt").write_text("a\nb\n")
    out = await call(tools["read"], path="a.txt", offset=5)
    assert out.is_error and out.text == "Offset 5 is beyond the end of a.txt (2 lines)."


async def test_read_first_line_over_budget_gets_a_hint(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "min.js").write_text("x" * 100_000 + "\nsecond\n")
    out = await call(tools["read"], path="min.js")
    assert not out.is_error
    assert (
        out.text
        == "[Line 1 is larger than the 50.0KB output limit. Use bash: sed -n '1p' min.js | head -c 51200]"
    )


async def test_read_missing_file_is_an_error(tools: dict[str, AgentTool]) -> None:
    out = await call(tools["read"], path="nope.txt")
    assert out.is_error and out.text == "File not found: nope.txt"


async def test_read_directory_gets_a_listing_hint(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x").write_text("")
    out = await call(tools["read"], path="d")
    assert (
        out.is_error
        and out.text
        == "d is a directory (1 entries), not a file. Use ls to list it, then read a file inside."
    )


async def test_read_refuses_binary_file_with_a_description(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "prog").write_bytes(b"\x7fELF\x02\x01\x01" + b"\x00" * 2000)
    out = await call(tools["read"], path="prog")
    assert out.is_error
    assert out.text.startswith("Cannot read prog: it is a binary file (ELF executable or library, 2.0KB).")
    (tmp_path / "blob").write_bytes(bytes(range(256)) * 4)
    assert "binary data, 1.0KB" in (await call(tools["read"], path="blob")).text


async def test_read_shows_invalid_utf8_with_replacement_characters(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "latin1.txt").write_bytes("café\n".encode("latin-1"))
    out = await call(tools["read"], path="latin1.txt")
    assert not out.is_error and out.text == "caf\ufffd"


async def test_read_strips_crlf_and_bom_for_display(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "w.txt").write_bytes(b"\xef\xbb\xbfa\r\nb\r\n")
    assert (await call(tools["read"], path="w.txt")).text == "a\nb"


async def test_read_decodes_utf16_with_bom(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "u.txt").write_bytes("héllo\nworld\n".encode("utf-16"))
    assert (await call(tools["read"], path="u.txt")).text == "héllo\nworld"


async def test_read_empty_file(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    (tmp_path / "e.txt").write_text("")
    assert (await call(tools["read"], path="e.txt")).text == "(empty file)"


def _png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


async def test_read_returns_an_image_block_for_a_png(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    data = _png(4, 3)
    (tmp_path / "shot.dat").write_bytes(data)  # detected by magic bytes, not by name
    out = await call(tools["read"], path="shot.dat")
    text, image = out.result.content
    assert isinstance(text, TextContent) and text.text.startswith("Read image file shot.dat [image/png")
    assert isinstance(image, ImageContent) and image.mime_type == "image/png"
    assert base64.b64decode(image.data) == data


async def test_read_detects_jpeg_gif_and_webp(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    for fmt, mime in (("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp")):
        buffer = io.BytesIO()
        Image.new("RGB", (5, 5)).save(buffer, format=fmt)
        (tmp_path / f"i.{fmt}").write_bytes(buffer.getvalue())
        out = await call(tools["read"], path=f"i.{fmt}")
        assert isinstance(out.result.content[1], ImageContent) and out.result.content[1].mime_type == mime


async def test_read_downscales_large_images_and_gives_the_scale(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path, settings=ToolSettings(image_max_dimension=100))
    (tmp_path / "big.png").write_bytes(_png(400, 200))
    out = await call(tools["read"], path="big.png")
    image = out.result.content[1]
    assert isinstance(image, ImageContent)
    with Image.open(io.BytesIO(base64.b64decode(image.data))) as decoded:
        assert decoded.size == (100, 50)
    assert "downscaled from 400x200 to 100x50; multiply coordinates by 4.00" in out.text


async def test_read_refuses_a_corrupt_image(tmp_path: Path) -> None:
    tools = create_coding_tools(tmp_path, settings=ToolSettings(image_max_dimension=1))
    (tmp_path / "bad.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"garbage" * 10)
    out = await call(tools["read"], path="bad.png")
    assert out.is_error and out.text.startswith("Cannot read image bad.png: the image could not be decoded")


async def test_read_through_a_symlink_reports_the_real_path(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "real.txt").write_text("content\n")
    (tmp_path / "alias.txt").symlink_to(tmp_path / "real.txt")
    out = await call(tools["read"], path="alias.txt")
    assert out.text == "content"
    assert out.result.details["resolvedPath"] == str(tmp_path / "real.txt")


async def test_read_of_a_huge_file_does_not_scan_it_to_count_lines(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    path = tmp_path / "huge.log"
    with open(path, "wb") as handle:
        handle.write(_lines(3000).encode())
        handle.truncate(40 * 1024 * 1024)  # sparse tail: reading it all would be visible in the notice
    out = await call(tools["read"], path="huge.log")
    assert out.text.endswith("[Showing lines 1-2000 of a 40.0MB file. Use offset=2001 to continue.]")


async def test_read_a_fifo_is_refused(tmp_path: Path, tools: dict[str, AgentTool]) -> None:
    os.mkfifo(tmp_path / "pipe")
    out = await call(tools["read"], path="pipe")
    assert out.is_error and "not a regular file" in out.text


async def test_read_offsets_across_chunk_boundaries_land_on_the_right_line(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "many.txt").write_text(_lines(300_000))  # ~3.5 MB: offsets cross 1 MB scan chunks
    for offset in (1, 2, 99_999, 100_000, 299_999, 300_000):
        out = await call(tools["read"], path="many.txt", offset=offset, limit=1)
        assert out.text.split("\n")[0] == f"line {offset}"


async def test_read_offset_at_the_last_line_without_trailing_newline(
    tmp_path: Path, tools: dict[str, AgentTool]
) -> None:
    (tmp_path / "a.txt").write_text("a\nb\nc")
    assert (await call(tools["read"], path="a.txt", offset=3)).text == "c"
    beyond = await call(tools["read"], path="a.txt", offset=4)
    assert beyond.is_error and beyond.text == "Offset 4 is beyond the end of a.txt (3 lines)."
    (tmp_path / "b.txt").write_text("a\nb\n")
    beyond = await call(tools["read"], path="b.txt", offset=3)
    assert beyond.is_error and beyond.text == "Offset 3 is beyond the end of b.txt (2 lines)."
