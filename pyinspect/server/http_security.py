"""Who may use `pyinspect serve --http`: its tools launch programs and read any memory of
what they debug, so the HTTP transport answers only a loopback client that shows the
server's bearer token, from a page of no other origin.

- bound to 127.0.0.1 only (run_server);
- a bearer token on every request (``Authorization: Bearer <token>``): read from the file
  given by ``--token-file``, else from PYINSPECT_HTTP_TOKEN, else a random one made at
  start and printed once on stderr;
- Host must name the loopback address and our port, and Origin (when sent) a loopback
  page: a DNS-rebinding page sends its own host name and fails both;
- request bodies of at most ``MAX_BODY_BYTES`` (the SDK's own limit, set here); the
  session rules are pyinspect.server.http_sessions'.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

__all__ = ["MAX_BODY_BYTES", "TOKEN_ENV", "BearerGuard", "load_token"]

TOKEN_ENV = "PYINSPECT_HTTP_TOKEN"
MAX_BODY_BYTES = 1024 * 1024
_MIN_TOKEN_CHARS = 16
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class TokenError(ValueError):
    """The configured token is unusable (empty file, too short)."""


def load_token(token_file: str | None = None) -> tuple[str, bool]:
    """(token, generated): from the file, else the environment, else a new random one."""
    if token_file is not None:
        try:
            token = Path(token_file).read_text().strip()
        except OSError as exc:
            raise TokenError(f"cannot read --token-file {token_file}: {exc.strerror}") from exc
        source = f"--token-file {token_file}"
    elif os.environ.get(TOKEN_ENV):
        token, source = os.environ[TOKEN_ENV].strip(), TOKEN_ENV
    else:
        return secrets.token_urlsafe(32), True
    if len(token) < _MIN_TOKEN_CHARS or any(c.isspace() for c in token):
        raise TokenError(f"the token from {source} must be at least {_MIN_TOKEN_CHARS} characters, no spaces")
    return token, False


def announce_token(token: str, port: int) -> None:
    """Print a generated token once, on stderr (stdout may be a client's pipe)."""
    print(f"pyinspect serve: http://127.0.0.1:{port}/mcp needs the header "
          f"'Authorization: Bearer {token}'", file=sys.stderr, flush=True)


def loopback_hosts(port: int) -> list[str]:
    return [f"{name}:{port}" for name in _LOOPBACK_NAMES]


def loopback_origins(port: int) -> list[str]:
    return [f"http://{name}:{port}" for name in _LOOPBACK_NAMES] + [f"http://{name}" for name in _LOOPBACK_NAMES]


class BearerGuard:
    """ASGI middleware in front of the whole app: Host, Origin, then the token."""

    def __init__(self, app: ASGIApp, token: str, port: int) -> None:
        self.app = app
        self._token = token.encode()
        self._hosts = set(loopback_hosts(port))
        self._origins = set(loopback_origins(port))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        refusal = self.refusal(headers)
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await _answer(send, *refusal)

    def refusal(self, headers: dict[str, str]) -> tuple[int, str] | None:
        """(status, reason) when the request must not pass, else None."""
        if headers.get("host") not in self._hosts:
            return 421, "Host must be the loopback address and this server's port"
        origin = headers.get("origin")
        if origin is not None and origin not in self._origins:
            return 403, "Origin must be a loopback page"
        scheme, _, presented = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(presented.strip().encode(), self._token):
            return 401, ("a bearer token is required: send 'Authorization: Bearer <token>' with the token this server "
                         f"was started with: the content of the file given to --token-file, else the environment "
                         f"variable {TOKEN_ENV}, else the one it printed on its stderr at start")
        return None


async def _answer(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"success": False, "error": {"code": "UNAUTHORIZED" if status == 401 else "FORBIDDEN",
                                                   "message": reason}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="pyinspect"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
