"""Read the entries of a zip archive (an inspect ``.eval`` log) without trusting its sizes.

Every entry is decompressed in chunks and counted as it comes: an entry larger than
:data:`MAX_ENTRY_BYTES`, or an archive whose entries add up to more than
:data:`MAX_TOTAL_BYTES`, stops the read with an error, whatever the sizes the archive
claims (a zip bomb claims small ones). Deflate, bzip2, LZMA and stored entries are read by
:mod:`zipfile`; the Zstandard entries that newer inspect versions write are read by
:mod:`zipfile` itself from Python 3.14, else by the optional ``zstandard`` package
(``pip install 'evalbars[inspect]'``).
"""
from __future__ import annotations

import io
import struct
import zipfile

from .._errors import EvalbarsError

MAX_ENTRY_BYTES = 1 << 30
"""Largest decompressed entry read (1 GiB): a sample with long transcripts fits easily."""

MAX_TOTAL_BYTES = 8 << 30
"""Largest decompressed total read from one archive (8 GiB)."""

ZSTD = 93
"""The zip compression method number of Zstandard."""

_CHUNK = 1 << 20


class Archive:
    """An open zip archive whose entries are read with size caps.

    Parameters
    ----------
    path : str
        The archive; an error names it when it is not a zip file.

    Examples
    --------
    >>> import pathlib, tempfile, zipfile
    >>> from evalbars.logs._zip import Archive
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "log.eval"
    >>> with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
    ...     z.writestr("header.json", '{"version": 2}')
    >>> with Archive(str(path)) as archive:
    ...     archive.names(), archive.read("header.json")
    (['header.json'], b'{"version": 2}')
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.total = 0
        try:
            self._zip = zipfile.ZipFile(path)
        except zipfile.BadZipFile:
            raise EvalbarsError(f"{path!r} is not a zip archive; an inspect .eval log is one "
                                f"(is the file complete?)") from None
        self._infos = {info.filename: info for info in self._zip.infolist()}

    def __enter__(self) -> "Archive":
        return self

    def __exit__(self, *exc) -> None:
        self._zip.close()

    def names(self) -> list[str]:
        """The entry names, in archive order."""
        return list(self._infos)

    def read(self, name: str) -> bytes:
        """The decompressed bytes of entry ``name``, counted against the caps as they come."""
        info = self._infos[name]
        try:
            with self._open(info) as stream:
                return self._drain(stream, name)
        except EvalbarsError:
            raise
        except Exception as exc:  # corrupt data: a CRC, zlib, LZMA or Zstandard error
            raise EvalbarsError(
                f"entry {name!r} of {self.path!r} is damaged ({exc}); the log cannot be read"
            ) from None

    def _open(self, info: zipfile.ZipInfo):
        try:
            return self._zip.open(info)
        except NotImplementedError:
            if info.compress_type != ZSTD:
                raise EvalbarsError(
                    f"entry {info.filename!r} of {self.path!r} uses zip compression method "
                    f"{info.compress_type}, which evalbars cannot read") from None
        try:
            import zstandard
        except ImportError:
            raise EvalbarsError(
                f"{self.path!r} is compressed with Zstandard, which this Python cannot read "
                f"by itself: pip install 'evalbars[inspect]' (or use Python 3.14 or later)"
            ) from None
        return zstandard.ZstdDecompressor().stream_reader(io.BytesIO(self._raw(info)))

    def _raw(self, info: zipfile.ZipInfo) -> bytes:
        """The compressed bytes of an entry, found through its local header."""
        handle = self._zip.fp
        handle.seek(info.header_offset)
        header = handle.read(30)
        if len(header) < 30 or header[:4] != b"PK\x03\x04":
            raise zipfile.BadZipFile("bad local file header")
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        handle.seek(info.header_offset + 30 + name_length + extra_length)
        return handle.read(info.compress_size)

    def _drain(self, stream, name: str) -> bytes:
        chunks, size = [], 0
        while True:
            chunk = stream.read(_CHUNK)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            self.total += len(chunk)
            if size > MAX_ENTRY_BYTES:
                raise EvalbarsError(
                    f"entry {name!r} of {self.path!r} decompresses to more than "
                    f"{MAX_ENTRY_BYTES:,} bytes (evalbars.logs._zip.MAX_ENTRY_BYTES); "
                    f"refusing to read it (a damaged file or a zip bomb?)")
            if self.total > MAX_TOTAL_BYTES:
                raise EvalbarsError(
                    f"{self.path!r} decompresses to more than {MAX_TOTAL_BYTES:,} bytes in "
                    f"all (evalbars.logs._zip.MAX_TOTAL_BYTES); refusing to read further "
                    f"(a damaged file or a zip bomb?)")
            chunks.append(chunk)
