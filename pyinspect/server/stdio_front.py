"""The stdio wire of `pyinspect serve`, held from the first moment of the process so the
handshake is answered while the MCP SDK is still loading.

An agent host spawns the server and waits for its answer to ``initialize`` (or
``server/discover``) and ``tools/list`` before its agent can begin; loading the SDK takes
about a second. The front claims stdin and stdout at once, reads every incoming line on a
thread, answers the requests whose reply is stored (pyinspect.server.reply_cache) and
queues every line, answered or not, for the SDK. Once loaded, the SDK serves the queue as
if it had read stdin itself; its own replies to what the front already answered are
dropped (after checking they equal what was sent), and its first replies to storable
requests are stored for the next start. Standard library only.
"""

from __future__ import annotations

import fcntl
import io
import json
import logging
import os
import sys
import threading
from collections import deque
from collections.abc import Callable
from typing import IO, Any

from pyinspect.server.reply_cache import ReplyCache, reply_key

__all__ = ["StdioFront"]

log = logging.getLogger(__name__)


def _claim(fd: int, mode: str, diversion: int) -> IO[bytes]:
    """The wire behind ``fd`` on a private descriptor; ``fd`` itself then points at
    ``diversion``, so a child process (the debug adapter) or a stray print can never
    write into the protocol stream or read from it."""
    try:
        private = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:  # started with the descriptor closed: nothing to read, nowhere to write
        return io.BytesIO()
    os.dup2(diversion, fd)
    return os.fdopen(private, mode)


_claiming = threading.Lock()
_claimed: StdioFront | None = None


class StdioFront:
    """Reads the wire on its own thread from construction on; see the module docstring.

    ``hand_over()`` gives the SDK every incoming line in order (None at end of input);
    ``write()`` is the SDK's way out."""

    def __init__(self, wire_in: IO[bytes], wire_out: IO[bytes], cache: ReplyCache) -> None:
        self._wire_in, self._wire_out, self._cache = wire_in, wire_out, cache
        self._backlog: list[bytes | None] = []  # lines read before the SDK took over
        self._deliver: Callable[[bytes | None], None] | None = None
        self._incoming = threading.Lock()  # keeps lines in order across the hand-over
        self._lock = threading.Lock()  # one writer at a time on the wire; guards the maps below
        self._sent: dict[str, deque[tuple[str, Any]]] = {}  # request id -> (reply key, result) sent early
        self._storable: dict[str, str] = {}  # request id -> reply key, for replies not stored yet
        self._handshake: str | None = None
        self._sdk_serving = False
        self._reader = threading.Thread(target=self._read, name="mcp-stdio-front", daemon=True)
        self._reader.start()

    @classmethod
    def claim_stdio(cls) -> StdioFront:
        """The process's own stdin and stdout, claimed once (a second call answers the
        same front); fd 0 then reads the null device and fd 1 writes to stderr."""
        global _claimed
        with _claiming:
            if _claimed is None:
                if sys.stdout is not None:
                    sys.stdout.flush()
                with open(os.devnull, "rb") as null:
                    wire_in = _claim(0, "rb", null.fileno())
                wire_out = _claim(1, "wb", 2)
                _claimed = cls(wire_in, wire_out, ReplyCache.for_this_install())
            return _claimed

    def hand_over(self, deliver: Callable[[bytes | None], None]) -> None:
        """From now on ``deliver`` gets each line (called on the reading thread), starting
        with those read so far, and the SDK answers everything itself."""
        with self._incoming:
            self._sdk_serving = True
            for line in self._backlog:
                deliver(line)
            self._backlog.clear()
            self._deliver = deliver

    def write(self, text: str) -> None:
        """One message from the SDK: dropped if the front answered it already, stored if
        it is the first reply to a storable request, then written."""
        reply = self._reply_to_watched(text)
        with self._lock:
            if reply is not None and self._settle(*reply):
                return
            self._send(text.encode("utf-8"))

    def _read(self) -> None:
        try:
            for line in self._wire_in:
                if line.strip():
                    self._answer_if_stored(line)
                    self._pass_on(line)
        except (OSError, ValueError) as exc:
            log.debug("stdin closed: %s", exc)
        finally:
            self._pass_on(None)

    def _pass_on(self, line: bytes | None) -> None:
        with self._incoming:
            if self._deliver is None:
                self._backlog.append(line)
                return
            try:
                self._deliver(line)
            except RuntimeError:  # the SDK's event loop has ended: nobody is left to read
                self._deliver = lambda _: None

    def _send(self, data: bytes) -> None:
        """Under the lock. A host gone away is the SDK's to notice (its stdin ends)."""
        try:
            self._wire_out.write(data)
            self._wire_out.flush()
        except (OSError, ValueError) as exc:
            log.debug("stdout closed: %s", exc)

    def _answer_if_stored(self, line: bytes) -> None:
        try:
            request = json.loads(line)
        except ValueError:
            return  # the SDK answers the parse error
        if not isinstance(request, dict) or "method" not in request or "id" not in request:
            return
        key = reply_key(request, self._handshake)
        if request.get("method") == "initialize":
            self._handshake = key
        if key is None:
            return
        request_id = json.dumps(request["id"])
        result = None if self._sdk_serving else self._cache.get(key)
        with self._lock:
            if result is None:
                self._storable[request_id] = key
                return
            self._sent.setdefault(request_id, deque()).append((key, result))
            answer = {"jsonrpc": "2.0", "id": request["id"], "result": result}
            self._send((json.dumps(answer, ensure_ascii=False, separators=(",", ":")) + "\n").encode())

    def _reply_to_watched(self, text: str) -> tuple[str, dict[str, Any]] | None:
        """(request id, message) when ``text`` replies to a request the front answered or
        wants stored; parsed only while there is one."""
        if not (self._sent or self._storable):
            return None
        try:
            message = json.loads(text)
        except ValueError:
            return None
        if not isinstance(message, dict) or "method" in message or "id" not in message:
            return None
        request_id = json.dumps(message["id"])
        return (request_id, message) if request_id in self._sent or request_id in self._storable else None

    def _settle(self, request_id: str, message: dict[str, Any]) -> bool:
        """Under the lock: True when the reply was already sent by the front."""
        early = self._sent.get(request_id)
        if early:
            key, sent = early.popleft()
            if not early:
                del self._sent[request_id]
            if message.get("result") != sent:
                log.warning("the stored reply to %s differed from the SDK's; stored anew", key.split(" ")[0])
                if "result" in message:
                    self._cache.put(key, message["result"])
            return True
        key = self._storable.pop(request_id, "")
        if key and "result" in message:
            self._cache.put(key, message["result"])
        return False
