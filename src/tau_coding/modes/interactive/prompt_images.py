"""What becomes of the images attached to a prompt in the TUI, by the user's settings.

``images.blockImages`` (Pi's key): none is sent, and a line says so. ``images.autoResize``
(default on): an image larger than providers accept (2000 pixels a side, ~4.5 MB as base64, the
read tool's limits) is scaled down with Pillow (``tools/images.py``); one that cannot be read as
an image is left out, with a line. Off: images go as they are.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from typing import Any

from tau_agent.content import ImageContent
from tau_coding.tools.config import ToolSettings
from tau_coding.tools.images import prepare_image


def _setting(settings: Mapping[str, Any], key: str, default: bool) -> bool:
    node: Any = settings
    for part in key.split("."):
        node = node.get(part) if isinstance(node, Mapping) else None
    return node if isinstance(node, bool) else default


def images_to_send(
    images: Sequence[ImageContent], settings: Mapping[str, Any], model: str | None = None
) -> tuple[list[ImageContent], list[str]]:
    """The images to send and a line for each one left out (or all of them, when blocked, or
    when ``model``, the label of a model that takes no images, is given)."""
    if not images:
        return [], []
    count = f"{len(images)} image{'s' if len(images) != 1 else ''}"
    if _setting(settings, "images.blockImages", False):
        return [], [f"images.blockImages is on: {count} not sent."]
    if model is not None:
        return [], [f"{model} takes no images: {count} not sent (/model picks another)."]
    if not _setting(settings, "images.autoResize", True):
        return list(images), []
    limits = ToolSettings()
    kept: list[ImageContent] = []
    problems: list[str] = []
    for number, image in enumerate(images, 1):
        try:
            data = base64.b64decode(image.data, validate=True)
            fitted = prepare_image(data, image.mime_type, limits.image_max_dimension, limits.image_max_bytes)
        except (ValueError, binascii.Error) as exc:
            problems.append(f"Image {number} was not sent: {exc}")
            continue
        kept.append(
            image if fitted.data == data else ImageContent(data=fitted.base64, mime_type=fitted.mime_type)
        )
    return kept, problems
