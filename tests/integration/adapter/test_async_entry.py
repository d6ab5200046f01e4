"""stopAtEntry in an `async Task Main`: the stop is on the first line of the user's Main body
(in its state machine), not in the compiler's `<Main>` without source, and a step from there
goes on line by line. CompatSample's Main is async."""

from __future__ import annotations

from support.adapter_session import launched, ok, output_of, top_frame
from support.targets import marker_line, target_source

TARGET = "CompatSample"


def main_body_lines() -> range:
    """The lines of CompatSample's async Main, from its signature to its closing brace."""
    lines = target_source(TARGET).read_text().splitlines()
    start = next(i for i, line in enumerate(lines, 1) if "static async Task<int> Main(" in line)
    end = next(i for i, line in enumerate(lines[start:], start + 1) if line.startswith("    }"))
    return range(start, end + 1)


def test_stop_at_entry_in_async_main_lands_on_the_users_first_line_and_next_steps_on() -> None:
    with launched(TARGET, args=["cwd"], stop_at_entry=True) as peer:
        stopped = peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "entry"
        frame = top_frame(peer, stopped["threadId"])
        assert frame["name"] == "CompatSample.Program.Main()"
        assert frame["source"]["path"].endswith("CompatSample/Program.cs")
        body = main_body_lines()
        assert frame["line"] in body and frame["line"] <= marker_line(TARGET, "main_first")
        assert "cwd " not in output_of(peer)
        seen = [frame["line"]]
        for _ in range(2):
            ok(peer.request("next", {"threadId": stopped["threadId"]}))
            stopped = peer.wait_event("stopped", timeout=30)["body"]
            assert stopped["reason"] == "step"
            frame = top_frame(peer, stopped["threadId"])
            assert frame["name"] == "CompatSample.Program.Main()" and frame["line"] in body
            seen.append(frame["line"])
        assert seen[0] < seen[1] < seen[2], seen
        assert marker_line(TARGET, "main_first") in seen
        ok(peer.request("continue", {"threadId": stopped["threadId"]}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "cwd " in output_of(peer)
