"""Content-Length framing of DAP messages over a pair of byte streams, nothing else."""

from __future__ import annotations

import json
import subprocess
import threading
from typing import IO, Any

from pyinspect.errors import AdapterDiedError, AdapterError

__all__ = ["DapStream"]

_MAX_HEADER_LINES = 16


class DapStream:
    """Reads and writes whole DAP messages; raises AdapterDiedError at end of stream."""

    def __init__(self, reader: IO[bytes], writer: IO[bytes], name: str = "adapter") -> None:
        self._reader = reader
        self._writer = writer
        self._write_lock = threading.Lock()
        self.name = name

    @classmethod
    def from_process(cls, proc: subprocess.Popen[bytes], name: str = "adapter") -> DapStream:
        if proc.stdout is None or proc.stdin is None:
            raise AdapterError("the adapter process must have piped stdin and stdout")
        return cls(proc.stdout, proc.stdin, name)

    @classmethod
    def from_pipes(cls, reader: IO[bytes], writer: IO[bytes], name: str = "adapter") -> DapStream:
        return cls(reader, writer, name)

    def read_message(self) -> dict[str, Any]:
        length = self._read_header()
        body = self._reader.read(length)
        if len(body) < length:
            raise AdapterDiedError(f"{self.name} closed its output in the middle of a message")
        try:
            message = json.loads(body)
        except ValueError as exc:
            raise AdapterError(f"{self.name} sent a body that is not JSON", body=body[:200]) from exc
        if not isinstance(message, dict):
            raise AdapterError(f"{self.name} sent a message that is not an object", body=body[:200])
        return message

    def _read_header(self) -> int:
        length = -1
        for _ in range(_MAX_HEADER_LINES):
            line = self._reader.readline()
            if not line:
                raise AdapterDiedError(f"{self.name} closed its output")
            text = line.decode("ascii", "replace").strip()
            if not text:
                if length >= 0:
                    return length
                continue  # stray blank line between messages
            name, _, value = text.partition(":")
            if name.strip().lower() == "content-length":
                try:
                    length = int(value.strip())
                except ValueError as exc:
                    raise AdapterError(f"{self.name} sent a bad Content-Length", header=text) from exc
        raise AdapterError(f"{self.name} sent a header without an end")

    def write_message(self, message: dict[str, Any]) -> None:
        body = json.dumps(message, separators=(",", ":")).encode()
        frame = b"Content-Length: %d\r\n\r\n" % len(body) + body
        with self._write_lock:
            try:
                self._writer.write(frame)
                self._writer.flush()
            except (OSError, ValueError) as exc:
                raise AdapterDiedError(f"{self.name} no longer reads its input") from exc

    def close_writer(self) -> None:
        """End the adapter's input (it then detaches and exits, closing our reader)."""
        with self._write_lock:
            try:
                self._writer.close()
            except (OSError, ValueError):
                pass

    def close_reader(self) -> None:
        """Only once no thread reads any more: a buffered reader's close waits for its lock."""
        try:
            self._reader.close()
        except (OSError, ValueError):
            pass
