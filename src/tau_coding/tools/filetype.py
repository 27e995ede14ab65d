"""Recognise images and binary files from their first bytes, not their names.

Pure functions over a file's head (the first few KB). Images are the four kinds every
provider accepts. Anything else with NUL bytes, or mostly control bytes, is binary; a few
common formats get a name so the refusal tells the model what the file is.
"""

from __future__ import annotations

SNIFF_BYTES = 8192

_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"%PDF-", 0, "PDF document"),
    (b"PK\x03\x04", 0, "zip archive (or a format built on zip: jar, docx, xlsx, wheel)"),
    (b"\x7fELF", 0, "ELF executable or library"),
    (b"\x1f\x8b", 0, "gzip-compressed data"),
    (b"BZh", 0, "bzip2-compressed data"),
    (b"\xfd7zXZ\x00", 0, "xz-compressed data"),
    (b"(\xb5/\xfd", 0, "zstd-compressed data"),
    (b"7z\xbc\xaf\x27\x1c", 0, "7-zip archive"),
    (b"SQLite format 3\x00", 0, "SQLite database"),
    (b"\xcf\xfa\xed\xfe", 0, "Mach-O executable"),
    (b"\xca\xfe\xba\xbe", 0, "Java class file or Mach-O universal binary"),
    (b"MZ", 0, "Windows executable"),
    (b"\x00asm", 0, "WebAssembly module"),
    (b"ustar", 257, "tar archive"),
    (b"BM", 0, "BMP image"),
    (b"II*\x00", 0, "TIFF image"),
    (b"MM\x00*", 0, "TIFF image"),
    (b"\x00\x00\x01\x00", 0, "ICO icon"),
    (b"OggS", 0, "Ogg media"),
    (b"ID3", 0, "MP3 audio"),
    (b"fLaC", 0, "FLAC audio"),
)


def image_mime(head: bytes) -> str | None:
    """``image/png``, ``image/jpeg``, ``image/gif`` or ``image/webp`` by signature, else None."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if len(head) >= 12 and head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def _looks_binary(head: bytes) -> bool:
    if b"\x00" in head:
        # UTF-16 text has NULs too, but only with a BOM; everything else with NULs is binary.
        return not head.startswith((b"\xff\xfe", b"\xfe\xff"))
    if not head:
        return False
    control = sum(1 for byte in head if byte < 32 and byte not in (9, 10, 12, 13, 27))
    return control / len(head) > 0.1


def binary_kind(head: bytes) -> str | None:
    """A short name for a binary file's type (``"ELF executable or library"``), or None for text.

    A signature made only of printable ASCII (``MZ``, ``BM``, ``%PDF-``) could open a text
    file, so it names the type only when the bytes also look binary.
    """
    binary = _looks_binary(head)
    for signature, offset, name in _SIGNATURES:
        plausible_text = all(32 <= byte < 127 for byte in signature)
        if head[offset : offset + len(signature)] == signature and (binary or not plausible_text):
            return name
    if len(head) >= 12 and head[4:8] == b"ftyp" and binary:
        return "MP4/QuickTime media"
    return "binary data" if binary else None
