"""Turning what users pass as a data file (a path, a file object, bytes) into bytes and a name."""

from __future__ import annotations

import bz2
import gzip
import os
from typing import IO, Any

__all__ = ["FileLike", "read_source", "source_name"]

FileLike = str | os.PathLike | bytes | IO[bytes]

_DECOMPRESSORS = {".gz": gzip.open, ".bz2": bz2.open}


def source_name(source: Any) -> str:
    """The name used for ``source`` in error messages.

    Examples
    --------
    >>> source_name("data/heart_scale"), source_name(b"1 1:2\\n")
    ('data/heart_scale', '<bytes>')
    """
    if isinstance(source, bytes | bytearray | memoryview):
        return "<bytes>"
    if isinstance(source, str | os.PathLike):
        return os.fspath(source)
    return str(getattr(source, "name", "<file>"))


def read_source(source: Any) -> bytes:
    """The whole content of ``source`` as bytes.

    Paths ending in ``.gz`` or ``.bz2`` are decompressed. A file object must
    be opened in binary mode.

    Examples
    --------
    >>> import io
    >>> read_source(io.BytesIO(b"1 1:2\\n"))
    b'1 1:2\\n'
    """
    if isinstance(source, bytes):
        return source
    if isinstance(source, bytearray | memoryview):
        return bytes(source)
    if isinstance(source, str | os.PathLike):
        path = os.fspath(source)
        opener = _DECOMPRESSORS.get(os.path.splitext(str(path))[1], open)
        with opener(path, "rb") as handle:
            return handle.read()
    if hasattr(source, "read"):
        content = source.read()
        if isinstance(content, str):
            raise TypeError(
                f"{source_name(source)}: the file object must be opened in binary mode ('rb')"
            )
        return bytes(content)
    raise TypeError(
        "f must be a path, a binary file object or bytes; "
        f"got {type(source).__name__}"
    )
