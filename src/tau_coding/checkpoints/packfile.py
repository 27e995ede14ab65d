"""PackWriter: blobs written straight into one git pack (pack v2 with its v2 index).

Used for the first snapshot of a project, where every file is new: git itself would hash each
file with its collision-detecting SHA-1 (several times slower than the CPU's SHA-1) and again
for the pack's checksum. The format is git's documented pack format
(Documentation/gitformat-pack.txt): objects are stored uncompressed (deflate "stored" blocks,
so writing costs a copy), ``tau checkpoints gc`` (``git gc``) compresses them later. An object
already written in this pack is not written twice. The pack and its index appear atomically
(each written to a temporary name, then renamed; the index last, as git finds packs by it).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import tempfile
import zlib
from pathlib import Path
from typing import BinaryIO

_BLOB = 3
_STORED_BLOCK = 65535  # the most a deflate stored block holds
_EMPTY_ZLIB = b"\x78\x01\x01\x00\x00\xff\xff\x00\x00\x00\x01"  # zlib stream of b""


def blob_id(data: bytes) -> bytes:
    """The git object id (binary SHA-1) of a blob holding ``data``."""
    digest = hashlib.sha1(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.digest()


def _object_header(size: int) -> bytes:
    out = [(_BLOB << 4) | (size & 0x0F)]
    size >>= 4
    while size:
        out[-1] |= 0x80
        out.append(size & 0x7F)
        size >>= 7
    return bytes(out)


def _stored_zlib(data: bytes) -> list[bytes | memoryview]:
    """``data`` as a zlib stream of stored (uncompressed) deflate blocks, in parts."""
    if not data:
        return [_EMPTY_ZLIB]
    view = memoryview(data)
    parts: list[bytes | memoryview] = [b"\x78\x01"]
    size = len(data)
    for start in range(0, size, _STORED_BLOCK):
        chunk = view[start : start + _STORED_BLOCK]
        final = 1 if start + _STORED_BLOCK >= size else 0
        parts.append(struct.pack("<BHH", final, len(chunk), len(chunk) ^ 0xFFFF))
        parts.append(chunk)
    parts.append(struct.pack(">I", zlib.adler32(data)))
    return parts


class PackWriter:
    """Collects blobs into a pack under ``objects_dir/pack``; ``finish`` makes it visible."""

    def __init__(self, objects_dir: Path) -> None:
        self._dir = objects_dir / "pack"
        self._dir.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix="tmp_pack_", dir=self._dir)
        self._temp = Path(name)
        self._out: BinaryIO = os.fdopen(fd, "wb", buffering=1 << 20)
        self._offset = 0
        self._objects: dict[bytes, tuple[int, int]] = {}  # id -> (offset, crc32)
        self._write([b"PACK", struct.pack(">II", 2, 0)])  # the count is patched in finish()

    def _write(self, parts: list[bytes | memoryview]) -> int:
        crc = 0
        for part in parts:
            self._out.write(part)
            crc = zlib.crc32(part, crc)
            self._offset += len(part)
        return crc

    def add(self, data: bytes) -> bytes:
        """Write a blob holding ``data`` (once); its object id."""
        object_id = blob_id(data)
        if object_id not in self._objects:
            offset = self._offset
            crc = self._write([_object_header(len(data)), *_stored_zlib(data)])
            self._objects[object_id] = (offset, crc)
        return object_id

    def __len__(self) -> int:
        return len(self._objects)

    def finish(self) -> None:
        """Close the pack and write its index; nothing is left behind when it holds nothing."""
        self._out.close()
        if not self._objects:
            self._temp.unlink(missing_ok=True)
            return
        # The count is known only now (a blob is written once), so the checksum is taken now.
        with open(self._temp, "r+b") as pack:
            pack.seek(8)
            pack.write(struct.pack(">I", len(self._objects)))
            pack.seek(0)
            digest = hashlib.sha1()
            while block := pack.read(1 << 20):
                digest.update(block)
            checksum = digest.digest()
            pack.write(checksum)
            pack.flush()
            os.fsync(pack.fileno())  # a checkpoint a session names must survive a crash
        name = checksum.hex()
        os.replace(self._temp, self._dir / f"pack-{name}.pack")
        index = _pack_index(self._objects, checksum)
        fd, temp_index = tempfile.mkstemp(prefix="tmp_idx_", dir=self._dir)
        with os.fdopen(fd, "wb") as out:
            out.write(index)
        os.replace(temp_index, self._dir / f"pack-{name}.idx")

    def abandon(self) -> None:
        """Drop the unfinished pack."""
        with contextlib.suppress(OSError):
            self._out.close()
        self._temp.unlink(missing_ok=True)


def _pack_index(objects: dict[bytes, tuple[int, int]], pack_checksum: bytes) -> bytes:
    """A version 2 pack index of ``objects`` (id -> offset, crc32)."""
    ids = sorted(objects)
    fanout = [0] * 256
    for object_id in ids:
        fanout[object_id[0]] += 1
    running = 0
    for byte in range(256):
        running += fanout[byte]
        fanout[byte] = running
    offsets: list[int] = []
    large: list[int] = []
    for object_id in ids:
        offset = objects[object_id][0]
        if offset < 0x80000000:
            offsets.append(offset)
        else:  # past 2 GiB: an entry of the 64-bit table
            offsets.append(0x80000000 | len(large))
            large.append(offset)
    body = b"".join(
        [
            b"\xfftOc",
            struct.pack(">I", 2),
            struct.pack(">256I", *fanout),
            *ids,
            struct.pack(f">{len(ids)}I", *(objects[i][1] for i in ids)),
            struct.pack(f">{len(ids)}I", *offsets),
            struct.pack(f">{len(large)}Q", *large),
            pack_checksum,
        ]
    )
    return body + hashlib.sha1(body).digest()


__all__ = ["PackWriter", "blob_id"]
