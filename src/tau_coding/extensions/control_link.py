"""Joining a session's extensions to the frontend's SessionControl, without importing them.

``attach_control`` is called for every session a frontend opens; most have no extension (only
Tau's own, which needs no control), and those must not pay for importing the host's machinery:
an ``ExtensionDoors`` can only exist once its module was imported, so that is looked at first.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tau_ai.model import Model
    from tau_coding.extensions.host import ExtensionHost
    from tau_coding.session.coding_session import CodingSession
    from tau_coding.session.control import SessionControl


def host_of(session: CodingSession) -> ExtensionHost | None:
    """The extension host bound to ``session``, if extensions (not only Tau's own) are loaded."""
    if "tau_coding.extensions.doors" not in sys.modules:
        return None
    from tau_coding.extensions.doors import ExtensionDoors
    from tau_coding.extensions.host import ExtensionHost

    hooks = session.hooks
    if isinstance(hooks, ExtensionDoors) and isinstance(hooks.host, ExtensionHost):
        return hooks.host
    return None


def extension_models(session: CodingSession) -> list[Model]:
    """The models of the providers the session's extensions have registered now."""
    host = host_of(session)
    return host.extension_models() if host is not None else []


def attach_control(control: SessionControl) -> None:
    """Give the session's extensions ``control``, and so each session ``reload`` builds."""

    def attach(session: CodingSession) -> None:
        host = host_of(session)
        if host is not None:
            host.control = control

    attach(control.session)
    control.reloaded.append(attach)
