"""A netcoredbg stand-in for tests where netcoredbg itself is not installed: our adapter
behind a relay that speaks with netcoredbg's known quirks, so the session's tolerance of
them is exercised for real. Started as `<python> netcoredbg_standin.py --interpreter=vscode`.

Quirks reproduced on every message from the adapter: `seq` and `request_seq` as strings;
no `memoryReference` on values; no pyinspect extensions (`pyinspectKind`, `hitCounts`); no
hit conditions (netcoredbg reads a breakpoint's line and condition only, and does not
declare `supportsHitConditionalBreakpoints`), so the session counts hits itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from typing import Any, BinaryIO

from pyinspect.dap.adapter import adapter_command


def read_message(stream: BinaryIO) -> dict[str, Any] | None:
    length = 0
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body: dict[str, Any] = json.loads(stream.read(length))
    return body


def write_message(stream: BinaryIO, message: dict[str, Any]) -> None:
    body = json.dumps(message).encode("utf-8")
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


OURS_ONLY = ("memoryReference", "pyinspectKind", "hitCounts", "supportsHitConditionalBreakpoints")


def without_hit_conditions(request: dict[str, Any]) -> dict[str, Any]:
    for breakpoint in (request.get("arguments") or {}).get("breakpoints") or []:
        breakpoint.pop("hitCondition", None)
    return request


def with_quirks(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: str(item) if key in ("seq", "request_seq") else with_quirks(item)
                for key, item in value.items() if key not in OURS_ONLY}
    if isinstance(value, list):
        return [with_quirks(item) for item in value]
    return value


def main() -> int:
    if sys.argv[1:] != ["--interpreter=vscode"]:
        print(f"unexpected arguments {sys.argv[1:]}", file=sys.stderr)
        return 2
    adapter = subprocess.Popen(adapter_command("pyinspect"), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert adapter.stdin is not None and adapter.stdout is not None
    upstream = adapter.stdin

    def forward_requests() -> None:
        while (message := read_message(sys.stdin.buffer)) is not None:
            write_message(upstream, without_hit_conditions(message))
        upstream.close()

    threading.Thread(target=forward_requests, daemon=True).start()
    while (message := read_message(adapter.stdout)) is not None:
        write_message(sys.stdout.buffer, with_quirks(message))
    return adapter.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
