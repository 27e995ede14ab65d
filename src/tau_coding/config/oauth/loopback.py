"""The loopback server a browser is redirected to at the end of an authorization request.

It listens on 127.0.0.1 only, answers the one callback path, checks ``state`` and hands the
``code`` (or the provider's ``error``) to whoever waits. Other paths get 404 and are ignored.
"""

from __future__ import annotations

import html
import queue
import threading
import urllib.parse
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True, slots=True)
class Callback:
    """What the redirect carried: a code, or the error the provider sent instead."""

    code: str | None = None
    error: str | None = None


class CallbackServer:
    """``with CallbackServer(port, path, state) as server: server.wait(timeout, cancelled)``."""

    def __init__(self, port: int, path: str, state: str) -> None:
        self._results: queue.Queue[Callback] = queue.Queue()
        results, expected_path, expected_state = self._results, path, state

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                url = urllib.parse.urlsplit(self.path)
                if url.path != expected_path:
                    self._page(404, "Not the login callback.")
                    return
                query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
                error, code = query.get("error"), query.get("code")
                if error:
                    detail = query.get("error_description", "")
                    self._page(400, f"Login did not complete: {error}. You can close this window.")
                    results.put(Callback(error=f"{error}: {detail}" if detail else error))
                elif not code or query.get("state") != expected_state:
                    self._page(400, "Missing code or state mismatch.")
                else:
                    self._page(200, "Login complete. You can close this window and return to Tau.")
                    results.put(Callback(code=code))

            def _page(self, status: int, text: str) -> None:
                body = f"<!doctype html><title>Tau login</title><p>{html.escape(text)}</p>".encode()
                self.send_response(status)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def __enter__(self) -> CallbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def wait(self, timeout: float, cancelled: threading.Event) -> Callback | None:
        """The first callback; None when ``timeout`` seconds pass or ``cancelled`` is set."""
        waited = 0.0
        while waited < timeout and not cancelled.is_set():
            try:
                return self._results.get(timeout=0.1)
            except queue.Empty:
                waited += 0.1
        return None
