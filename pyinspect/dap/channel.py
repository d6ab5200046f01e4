"""Request/response correlation and event delivery over one DapStream.

One reader thread owns the input side. Each request is a Future in ``pending`` keyed
by seq; the reader resolves it. When the stream ends, every pending request fails at
once with AdapterDiedError, so no caller ever waits on a dead adapter. Events are
buffered from the first byte (a caller may ask for `initialized` after it arrived) and
also handed to listeners, on the reader thread, which must not block.
"""

from __future__ import annotations

import collections
import itertools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from pyinspect.dap.stream import DapStream
from pyinspect.errors import AdapterDiedError, AdapterError, AdapterTimeoutError, RequestFailedError

__all__ = ["DEFAULT_TIMEOUT", "DapChannel", "EventListener"]

DEFAULT_TIMEOUT = 15.0
_EVENT_BUFFER = 2000
EventListener = Callable[[dict[str, Any]], None]
log = logging.getLogger(__name__)


def _as_int(value: Any) -> int | None:
    """netcoredbg may spell seq numbers as strings."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class DapChannel:
    def __init__(self, stream: DapStream) -> None:
        self._stream = stream
        self._seq = itertools.count(1)
        self._lock = threading.Lock()
        self._pending: dict[int, tuple[str, Future[dict[str, Any]]]] = {}
        self._events: collections.deque[dict[str, Any]] = collections.deque(maxlen=_EVENT_BUFFER)
        self._events_changed = threading.Condition(self._lock)
        self._listeners: list[EventListener] = []
        self._closed_error: AdapterError | None = None
        self._reader = threading.Thread(target=self._read_loop, name="pyinspect-dap-reader", daemon=True)
        self._reader.start()

    @property
    def is_closed(self) -> bool:
        return self._closed_error is not None

    def add_listener(self, listener: EventListener) -> None:
        self._listeners.append(listener)

    def send_request(self, command: str, arguments: dict[str, Any] | None = None) -> Future[dict[str, Any]]:
        """Send a request; the Future yields the whole response (success or not)."""
        future: Future[dict[str, Any]] = Future()
        with self._lock:
            if self._closed_error is not None:
                raise AdapterDiedError(self._closed_error.message, command=command)
            seq = next(self._seq)
            self._pending[seq] = (command, future)
        message: dict[str, Any] = {"seq": seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        try:
            self._stream.write_message(message)
        except AdapterError as exc:
            with self._lock:
                self._pending.pop(seq, None)
            raise self._death_once_heard(exc, command) from exc
        return future

    def _death_once_heard(self, error: AdapterError, command: str) -> AdapterError:
        """A write failed because the adapter is gone: wait briefly for the reader to hear its
        end, so the listeners have recorded the death before the caller sees this failure."""
        with self._events_changed:
            self._events_changed.wait_for(lambda: self._closed_error is not None, timeout=1.0)
            closed = self._closed_error
        return AdapterDiedError(closed.message, command=command) if closed is not None else error

    def request(self, command: str, arguments: dict[str, Any] | None = None,
                timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """Send a request and return its body; RequestFailedError when success is false."""
        response = self.wait_response(self.send_request(command, arguments), command, timeout)
        if not response.get("success", False):
            message = response.get("message") or "request failed"
            error_body = (response.get("body") or {}).get("error") or {}
            detail = error_body.get("format") if isinstance(error_body, dict) else None
            raise RequestFailedError(str(detail or message), command=command)
        body = response.get("body")
        return body if isinstance(body, dict) else {}

    def wait_response(self, future: Future[dict[str, Any]], command: str, timeout: float) -> dict[str, Any]:
        try:
            return future.result(timeout=timeout)
        except FutureTimeout:
            raise AdapterTimeoutError(f"the adapter did not answer {command} within {timeout:g} s",
                                      command=command) from None

    def wait_event(self, name: str, timeout: float = DEFAULT_TIMEOUT,
                   predicate: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
        """Take the first buffered (or next arriving) event called `name` matching predicate."""
        deadline = time.monotonic() + timeout
        with self._events_changed:
            while True:
                for event in self._events:
                    if event.get("event") == name and (predicate is None or predicate(event)):
                        self._events.remove(event)
                        return event
                if self._closed_error is not None:
                    raise AdapterDiedError(f"the adapter ended before sending {name}: "
                                           f"{self._closed_error.message}", event=name)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AdapterTimeoutError(f"no {name} event within {timeout:g} s", event=name)
                self._events_changed.wait(left)

    def clear_events(self, name: str | None = None) -> None:
        with self._lock:
            kept = [e for e in self._events if name is not None and e.get("event") != name]
            self._events.clear()
            self._events.extend(kept)

    def _read_loop(self) -> None:
        error: AdapterError
        try:
            while True:
                self._dispatch(self._stream.read_message())
        except AdapterError as exc:
            error = exc
        except Exception as exc:  # noqa: BLE001 - any reader failure ends the channel
            error = AdapterDiedError(f"reading from the adapter failed: {exc}")
        self._fail_everything(error)

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "response":
            seq = _as_int(message.get("request_seq"))
            with self._lock:
                entry = self._pending.pop(seq, None) if seq is not None else None
            if entry is not None:
                entry[1].set_result(message)
        elif kind == "event":
            with self._events_changed:
                self._events.append(message)
                self._events_changed.notify_all()
            for listener in list(self._listeners):
                try:
                    listener(message)
                except Exception:
                    log.exception("DAP event listener failed on %s", message.get("event"))
        elif kind == "request":  # reverse requests (runInTerminal...): not supported
            self._reply_unsupported(message)

    def _reply_unsupported(self, request: dict[str, Any]) -> None:
        reply = {"seq": next(self._seq), "type": "response", "request_seq": request.get("seq"),
                 "command": request.get("command"), "success": False, "message": "not supported"}
        try:
            self._stream.write_message(reply)
        except AdapterError:
            pass

    def _fail_everything(self, error: AdapterError) -> None:
        """Tell the listeners first, then fail every request: whoever sees a request fail
        with ADAPTER_DIED then also sees the session's state say why (no window between)."""
        died = error if isinstance(error, AdapterDiedError) else AdapterDiedError(error.message)
        closed = {"type": "event", "event": "pyinspect.adapterClosed", "body": {"message": died.message}}
        for listener in list(self._listeners):
            try:
                listener(closed)
            except Exception:
                log.exception("DAP listener failed on adapter close")
        with self._events_changed:
            self._closed_error = died
            pending = list(self._pending.values())
            self._pending.clear()
            self._events_changed.notify_all()
        for command, future in pending:
            future.set_exception(AdapterDiedError(f"{died.message} while waiting for {command}",
                                                  command=command))

    def close(self, timeout: float = 5.0) -> bool:
        """Close our side; True when the reader saw the end within `timeout`."""
        self._stream.close_writer()
        self._reader.join(timeout=timeout)
        if self._reader.is_alive():
            return False
        self._stream.close_reader()
        return True

    def join_reader(self, timeout: float) -> bool:
        self._reader.join(timeout=timeout)
        if self._reader.is_alive():
            return False
        self._stream.close_reader()
        return True
