"""Opening an HTML export contacts no host: Markdown images are links, and a strict CSP."""

from __future__ import annotations

import http.server
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_coding.session.store.export import export_session

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


@pytest.fixture
def tracker() -> Iterator[tuple[str, list[str]]]:
    """A loopback server that records every path asked of it."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()


def _export(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "s.jsonl"
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new("/p"), fsync="never"))
    log.append_message(UserMessage(f"look at {url}/user.png"))
    log.append_message(
        AssistantMessage(
            [
                TextContent(
                    f"Here:\n\n![pixel]({url}/pixel.png)\n\n[a link]({url}/page) and ![]({url}/bare.gif)"
                )
            ]
        )
    )
    log.close()
    return export_session(path, tmp_path / "s.html")


def test_markdown_images_become_links_and_no_tag_loads_a_remote_url(tmp_path: Path) -> None:
    page = _export(tmp_path, "http://tracker.example")
    tags = Tags()
    tags.feed(page.read_text())
    loading = [
        (tag, attrs)
        for tag, attrs in tags.tags
        for key in ("src", "srcset", "poster", "data")
        if (attrs.get(key) or "data:").split(":", 1)[0] != "data"
    ]
    assert loading == []
    links = [a.get("href") for t, a in tags.tags if t == "a"]
    assert "http://tracker.example/pixel.png" in links and "http://tracker.example/bare.gif" in links
    assert "[image: pixel]" in page.read_text()


def test_the_page_carries_a_strict_content_security_policy(tmp_path: Path) -> None:
    page = _export(tmp_path, "http://tracker.example")
    tags = Tags()
    tags.feed(page.read_text())
    (policy,) = [
        a.get("content") or ""
        for t, a in tags.tags
        if t == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy"
    ]
    rules = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert rules["default-src"] == ["'none'"]
    assert rules["img-src"] == ["data:"]
    assert rules["base-uri"] == ["'none'"] and rules["form-action"] == ["'none'"]
    (script,) = rules["script-src"]
    assert re.fullmatch(r"'sha256-[A-Za-z0-9+/]+=*'", script)  # only the page's own script
    assert "'unsafe-inline'" not in rules["script-src"]


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)")
def test_a_real_browser_opening_the_export_contacts_no_host_and_still_runs_the_script(
    tmp_path: Path, tracker: tuple[str, list[str]]
) -> None:
    url, hits = tracker
    page = _export(tmp_path, url)
    assert CHROMIUM is not None
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert 'data-ready="1"' in dom  # the page's own script ran under the policy
    assert hits == []
