from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_coding.session.store.entry_line import describe
from tau_coding.session.store.export import export_session
from tau_coding.session.store.export_html import tree_rows

GOLDEN = Path(__file__).resolve().parents[3] / "golden" / "sessions"


class Page(HTMLParser):
    """Collects what the tests look at: tags with their attributes, and tree items."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def by(self, tag: str, **where: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in where.items())]


def sample(path: Path) -> SessionLog:
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="never"))
    log.append_message(UserMessage("Show <script>alert(1)</script> & read main.py"))
    log.append_message(
        AssistantMessage(
            [
                TextContent("Sure:\n\n```python\ndef f():\n    return 1\n```"),
                ToolCall("c1", "read", {"path": "main.py"}),
            ],
            stop_reason="toolUse",
        )
    )
    log.append_message(ToolResultMessage("c1", "read", [TextContent("import os\nprint(os.getcwd())\n")]))
    fork_point = log.append_message(AssistantMessage([TextContent("Done.")]))
    log.append_message(UserMessage("a road not taken"))
    log.navigate(fork_point.id)
    log.set_label(fork_point.id, "here")
    log.append_message(UserMessage("the road taken"))
    return log


def test_html_export_holds_the_whole_tree_and_shows_the_active_path(tmp_path: Path) -> None:
    log = sample(tmp_path / "s.jsonl")
    log.close()
    out = export_session(tmp_path / "s.jsonl", tmp_path / "out" / "s.html")
    html = out.read_text()
    page = Page()
    page.feed(html)
    sections = page.by("section")
    assert len(sections) == len(tree_rows(log.tree)) == 7  # every entry but the leaf marker
    hidden = [s["data-id"] for s in sections if "hidden" in (s["class"] or "")]
    assert hidden == [log.entries[4].id]  # only the road not taken is off the active path
    assert "← active" in html and ">here</span>" in html
    first = log.entries[0]  # the tree lists each entry by the line /tree shows for it
    assert f'data-id="{first.id}" title="{escape(describe(first) or "")}"' in html
    assert html.count("<script>") == 1  # ours; the message's is escaped
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert re.search(r'<pre class="hl"><span class="k">def</span>', html)  # fence highlighted
    assert '<span class="kn">import</span>' in html  # read result highlighted by file name
    for _, attrs in page.tags:  # self-contained: nothing fetched from anywhere
        for key in ("src", "href"):
            assert not (attrs.get(key) or "").startswith(("http:", "https:", "//")), attrs


def test_markdown_export_is_chosen_by_extension(tmp_path: Path) -> None:
    sample(tmp_path / "s.jsonl").close()
    out = export_session(tmp_path / "s.jsonl", tmp_path / "s.md")
    text = out.read_text()
    assert text.startswith("# Show <script>") and "the road taken" in text and "a road not taken" not in text


def test_tree_rows_indent_only_at_branch_points_and_survive_deep_chains(tmp_path: Path) -> None:
    log = sample(tmp_path / "s.jsonl")
    indents = [indent for _, indent in tree_rows(log.tree)]
    assert indents == [0, 0, 0, 0, 1, 1, 1]
    log.close()


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(*args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def png_size_and_colours(path: Path) -> tuple[int, int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    idat = b"".join(
        data[i + 8 : i + 8 + struct.unpack(">I", data[i : i + 4])[0]] for i in _chunks(data, b"IDAT")
    )
    return width, height, len(set(zlib.decompress(idat)))


def _chunks(data: bytes, kind: bytes) -> list[int]:
    found, at = [], 8
    while at < len(data):
        length = struct.unpack(">I", data[at : at + 4])[0]
        if data[at + 4 : at + 8] == kind:
            found.append(at)
        at += 12 + length
    return found


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)")
def test_the_export_renders_in_a_real_headless_browser(tmp_path: Path) -> None:
    out = export_session(GOLDEN / "pi-v3.jsonl", tmp_path / "pi.html")
    shot = tmp_path / "shot.png"
    result = chromium("--window-size=1280,900", f"--screenshot={shot}", out.as_uri())
    assert shot.is_file(), result.stderr[-2000:]
    width, height, colours = png_size_and_colours(shot)
    assert (width, height) == (1280, 900)
    assert colours > 50  # text, boxes and highlighting, not a blank page
    # The script ran: it marked the page ready, showed the leaf's path, and filters on ?q=.
    dom = chromium("--dump-dom", out.as_uri() + "?q=picture").stdout
    assert 'data-ready="1"' in dom and 'data-shown="0c64f07c"' in dom
    matching = re.findall(r'<li class="([^"]*)"[^>]*data-id="0bfa411f"', dom)
    assert matching and "no-match" not in matching[0]
    assert re.search(r'<li class="[^"]*no-match[^"]*"[^>]*data-id="52628d83"', dom)
    # Opening at an entry off the active path shows that entry's path instead.
    branch = chromium("--dump-dom", out.as_uri() + "#e-e38c84ae").stdout
    assert re.search(r'<section id="e-e38c84ae" class="entry assistant"', branch)
    assert re.search(r'<section id="e-0c64f07c" class="entry assistant hidden"', branch)
