"""The failures of an HTTP exchange, named and nested as httpx names its own.

Tau's own HTTP/1.1 client raises these; the httpx path translates httpx's exceptions into
them (``http_client.HttpxSender``), so ``http_attempt`` handles one family whichever client
sent the request, and an error's class name (which reaches the user's error message) is the
same either way.
"""

from __future__ import annotations


class HTTPError(Exception):
    """Any failure to get a response or read its body."""


class DecodingError(HTTPError):
    """A response body that its content encoding cannot undo."""


class TransportError(HTTPError):
    """The connection failed: worth another attempt."""


class TimeoutException(TransportError):
    pass


class ConnectTimeout(TimeoutException):
    pass


class ReadTimeout(TimeoutException):
    pass


class WriteTimeout(TimeoutException):
    pass


class PoolTimeout(TimeoutException):
    pass


class NetworkError(TransportError):
    pass


class ConnectError(NetworkError):
    pass


class ReadError(NetworkError):
    pass


class WriteError(NetworkError):
    pass


class ProtocolError(TransportError):
    pass


class RemoteProtocolError(ProtocolError):
    pass


class LocalProtocolError(ProtocolError):
    pass


class ProxyError(TransportError):
    pass


class UnsupportedProtocol(TransportError):
    pass


class StreamClosed(RuntimeError):
    """A response body read after it was closed: a bug in the caller."""
