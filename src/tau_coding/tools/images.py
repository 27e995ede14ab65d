"""Fit an image within what providers accept: at most N pixels a side and M bytes as base64.

Pillow is imported only when an image actually needs shrinking, so starting Tau (and reading
small images) never pays for it. The returned note tells the model the scale factor, so
coordinates it reads off a downscaled screenshot can be mapped back.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

_JPEG_QUALITIES = (85, 70, 55, 40)


@dataclass(frozen=True, slots=True)
class PreparedImage:
    data: bytes
    mime_type: str
    note: str = ""
    width: int | None = None
    height: int | None = None

    @property
    def base64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")


def _encoded_size(size: int) -> int:
    return (size + 2) // 3 * 4


def prepare_image(data: bytes, mime_type: str, max_dimension: int, max_bytes: int) -> PreparedImage:
    """``data`` unchanged when it fits, else a downscaled PNG or JPEG that does.

    Raises ValueError when the bytes cannot be decoded as an image or cannot be made to fit.
    """
    from PIL import Image, ImageOps, UnidentifiedImageError  # lazy: Pillow costs tens of ms to import

    try:
        with Image.open(io.BytesIO(data)) as opened:
            width, height = opened.size
            if max(width, height) <= max_dimension and _encoded_size(len(data)) <= max_bytes:
                return PreparedImage(data, mime_type, "", width, height)
            image = ImageOps.exif_transpose(opened)
            image.load()
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise ValueError(f"the image could not be decoded ({exc})") from exc
    scale = min(1.0, max_dimension / max(image.size))
    for _attempt in range(6):
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        resized = image.resize(size, Image.Resampling.LANCZOS) if size != image.size else image
        for out, out_mime in _encodings(resized):
            if _encoded_size(len(out)) <= max_bytes:
                factor = width / size[0]
                note = (
                    f"Image downscaled from {width}x{height} to {size[0]}x{size[1]}; "
                    f"multiply coordinates by {factor:.2f} to map them onto the original."
                    if size != (width, height)
                    else f"Image re-encoded as {out_mime} to fit the size limit."
                )
                return PreparedImage(out, out_mime, note, size[0], size[1])
        scale *= 0.75
    raise ValueError("the image is too large to send even after downscaling")


def _encodings(image: Image.Image) -> Iterator[tuple[bytes, str]]:
    """PNG first (lossless), then JPEG at falling quality; each made only when asked for."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    yield buffer.getvalue(), "image/png"
    rgb = image.convert("RGB") if image.mode not in ("RGB", "L") else image
    for quality in _JPEG_QUALITIES:
        buffer = io.BytesIO()
        rgb.save(buffer, format="JPEG", quality=quality)
        yield buffer.getvalue(), "image/jpeg"
