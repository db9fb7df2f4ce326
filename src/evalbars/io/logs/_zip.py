"""Read the entries of a zip archive (an inspect ``.eval`` log) without trusting its sizes.

Every entry is decompressed in chunks and counted as it comes: an entry larger than
:data:`MAX_ENTRY_BYTES`, or an archive whose entries add up to more than
:data:`MAX_TOTAL_BYTES`, stops the read with an error, whatever the sizes the archive
claims (a zip bomb claims small ones). An entry read as metadata (the header, not a sample)
stops at the far lower :data:`MAX_METADATA_BYTES`. Entries are JSON, and what parsing builds
is bounded too: a few bytes of ``[],`` or ``0,`` become a Python object each, so 150 MB
of them took gigabytes in :func:`json.loads`. The ``[``, ``{`` and ``,`` characters of
each entry are counted as it is decompressed, and past :data:`MAX_ENTRY_VALUES` (5
million, which bounds the arrays, objects and values a parse builds) the read stops before
anything is parsed. Stored and Deflate entries are read by
:mod:`zipfile`, which inflates at most one chunk per read. bzip2 and LZMA entries are
decompressed here, one bounded chunk at a time, with their CRC checked: :mod:`zipfile`
would decompress each block of input in one call, so a few kilobytes of bzip2 could fill
gigabytes of memory before any cap is checked. The Zstandard entries that newer inspect
versions write are read, in bounded chunks, by the optional ``zstandard`` package
(``pip install 'evalbars[inspect]'``), or from Python 3.14 by :mod:`compression.zstd`.
"""
from __future__ import annotations

import bz2
import io
import struct
import zipfile
import zlib

from ...core.errors import EvalbarsError

MAX_ENTRY_BYTES = 1 << 30
"""Largest decompressed entry read (1 GiB): a sample with long transcripts fits easily."""

MAX_TOTAL_BYTES = 8 << 30
"""Largest decompressed total read from one archive (8 GiB)."""

MAX_METADATA_BYTES = 64 << 20
"""Largest decompressed metadata entry read (64 MiB): an inspect header is kilobytes."""

MAX_ENTRY_VALUES = 5_000_000
"""Most JSON values an entry may hold, counted as its ``[``, ``{`` and ``,`` characters
(those inside strings too, so the count is an upper bound): what :func:`json.loads` builds
from it stays within a few hundred megabytes."""

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
    >>> from evalbars.io.logs._zip import Archive
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
        except (FileNotFoundError, PermissionError, IsADirectoryError):
            raise
        except zipfile.BadZipFile:
            raise EvalbarsError(f"{path!r} is not a zip archive; an inspect .eval log is one "
                                f"(is the file complete?)") from None
        except Exception as exc:  # a damaged directory: NotImplementedError("zip file
            # version 8.1"), UnicodeDecodeError of a name, a bad seek, ...
            reason = " ".join(str(exc).split())[:200]
            raise EvalbarsError(f"{path!r} is a damaged zip archive ({type(exc).__name__}: "
                                f"{reason}); the log cannot be read") from None
        self._infos = {info.filename: info for info in self._zip.infolist()}

    def __enter__(self) -> "Archive":
        return self

    def __exit__(self, *exc) -> None:
        self._zip.close()

    def names(self) -> list[str]:
        """The entry names, in archive order."""
        return list(self._infos)

    def read(self, name: str, metadata: bool = False) -> bytes:
        """The decompressed bytes of entry ``name``, counted against the caps as they come:
        :data:`MAX_METADATA_BYTES` with ``metadata``, else :data:`MAX_ENTRY_BYTES`."""
        info = self._infos[name]
        try:
            with self._open(info) as stream:
                return self._drain(stream, name, metadata)
        except EvalbarsError:
            raise
        except Exception as exc:  # corrupt data: a CRC, zlib, LZMA or Zstandard error
            raise EvalbarsError(
                f"entry {name!r} of {self.path!r} is damaged ({exc}); the log cannot be read"
            ) from None

    def _open(self, info: zipfile.ZipInfo):
        method = info.compress_type
        if method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            return self._zip.open(info)  # inflates at most about one read's worth per call
        if method not in (zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA, ZSTD):
            raise EvalbarsError(
                f"entry {info.filename!r} of {self.path!r} uses zip compression method "
                f"{method}, which evalbars cannot read")
        if info.flag_bits & 0x1:
            raise EvalbarsError(f"entry {info.filename!r} of {self.path!r} is encrypted; "
                                f"evalbars reads unencrypted logs only")
        raw = self._raw(info)
        if method == zipfile.ZIP_BZIP2:
            return _Bounded(bz2.BZ2Decompressor(), raw, info.CRC)
        if method == zipfile.ZIP_LZMA:
            return _Bounded(*_lzma(raw), info.CRC)
        try:
            import zstandard
        except ImportError:
            try:  # Python 3.14
                from compression import zstd  # type: ignore[import-not-found]
            except ImportError:
                raise EvalbarsError(
                    f"{self.path!r} is compressed with Zstandard, which this Python cannot "
                    f"read by itself: pip install 'evalbars[inspect]' (or use Python 3.14 or "
                    f"later)") from None
            return _Bounded(zstd.ZstdDecompressor(), raw, None)
        return zstandard.ZstdDecompressor().stream_reader(io.BytesIO(raw))

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

    def _drain(self, stream, name: str, metadata: bool) -> bytes:
        cap, cap_name = (MAX_METADATA_BYTES, "MAX_METADATA_BYTES") if metadata else \
            (MAX_ENTRY_BYTES, "MAX_ENTRY_BYTES")
        chunks, size, values = [], 0, 0
        while True:
            chunk = stream.read(_CHUNK)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            self.total += len(chunk)
            if size > cap:
                raise EvalbarsError(
                    f"entry {name!r} of {self.path!r} decompresses to more than "
                    f"{cap:,} bytes (evalbars.io.logs._zip.{cap_name}); "
                    f"refusing to read it (a damaged file or a zip bomb?)")
            values += chunk.count(b",") + chunk.count(b"[") + chunk.count(b"{")
            if values > MAX_ENTRY_VALUES:
                raise EvalbarsError(
                    f"entry {name!r} of {self.path!r} holds more than {MAX_ENTRY_VALUES:,} "
                    f"JSON values (counted as its '[', '{{' and ',' characters; "
                    f"evalbars.io.logs._zip.MAX_ENTRY_VALUES); refusing to parse it, which "
                    f"would take gigabytes of memory (a damaged file or a hostile one?)")
            if self.total > MAX_TOTAL_BYTES:
                raise EvalbarsError(
                    f"{self.path!r} decompresses to more than {MAX_TOTAL_BYTES:,} bytes in "
                    f"all (evalbars.io.logs._zip.MAX_TOTAL_BYTES); refusing to read further "
                    f"(a damaged file or a zip bomb?)")
            chunks.append(chunk)


class _Bounded:
    """A reader of one compressed entry that makes at most ``size`` bytes per read.

    ``decompressor`` is a :class:`bz2.BZ2Decompressor`, an :class:`lzma.LZMADecompressor`
    or a Zstandard one (anything with ``decompress(data, max_length)``, ``eof`` and
    ``needs_input``); it holds the rest of the input between reads, so memory stays at one
    chunk whatever the compression ratio. At the end the CRC-32 is checked, when given.
    """

    def __init__(self, decompressor, raw: bytes, crc: int | None) -> None:
        self._decompressor = decompressor
        self._pending = raw
        self._crc = crc
        self._running = 0
        self._done = False

    def __enter__(self) -> "_Bounded":
        return self

    def __exit__(self, *exc) -> None:
        self._pending = b""

    def read(self, size: int) -> bytes:
        if self._done:
            return b""
        d = self._decompressor
        data = b"" if d.eof else d.decompress(self._pending, size)
        self._pending = b""
        if not data and (d.eof or d.needs_input):
            self._done = True
            if self._crc is not None and self._running != self._crc:
                raise zipfile.BadZipFile("bad CRC-32 (the data is truncated or damaged)")
            return b""
        self._running = zlib.crc32(data, self._running)
        return data


def _lzma(raw: bytes):
    """A raw LZMA1 decompressor for a zip entry and its compressed data.

    A zip LZMA entry starts with 2 version bytes and the size of the LZMA properties that
    follow (APPNOTE 5.8.8), as :mod:`zipfile` reads it.
    """
    import lzma

    if len(raw) < 4:
        raise zipfile.BadZipFile("truncated LZMA header")
    (size,) = struct.unpack("<H", raw[2:4])
    if len(raw) < 4 + size:
        raise zipfile.BadZipFile("truncated LZMA properties")
    filters = [lzma._decode_filter_properties(lzma.FILTER_LZMA1, raw[4:4 + size])]
    return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=filters), raw[4 + size:]
