"""Two things VS Code's C# extension users rely on: a breakpoint set through a symbolically
linked project folder binds (the PDB names the real path; both are compared with their links
resolved), and launch's `envFile` sets the debuggee's environment (`env` wins)."""

from __future__ import annotations

from pathlib import Path

from support.adapter_session import ok, top_frame
from support.dap_wire import WirePeer
from support.targets import TARGETS_DIR, marker_line, target_dll


def test_a_breakpoint_set_through_a_linked_project_folder_binds_and_stops(tmp_path: Path) -> None:
    linked = tmp_path / "linked-project"
    linked.symlink_to(TARGETS_DIR / "MemoryTruth", target_is_directory=True)
    line = marker_line("MemoryTruth", "ready")
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        ok(peer.request("launch", {"program": str(target_dll("MemoryTruth")), "args": [str(tmp_path / "t.json")]},
                        timeout=60))
        body = ok(peer.request("setBreakpoints", {"source": {"path": str(linked / "Program.cs")},
                                                  "breakpoints": [{"line": line}]}))
        assert [b["verified"] for b in body["breakpoints"]] == [True]
        ok(peer.request("configurationDone"))
        stopped = peer.wait_event("stopped", timeout=60)["body"]
        assert stopped["reason"] == "breakpoint"
        assert top_frame(peer, stopped["threadId"])["line"] == line
        ok(peer.request("disconnect", {"terminateDebuggee": True}))
    finally:
        peer.close()


def test_env_file_variables_reach_the_debuggee_and_env_wins(tmp_path: Path) -> None:
    env_file = tmp_path / "app.env"
    env_file.write_text('# settings\nFROM_FILE="file value"\nBOTH=from file\n\nSINGLE=\'quoted\'\n')
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        ok(peer.request("launch", {"program": str(target_dll("MemoryTruth")), "args": [str(tmp_path / "t.json")],
                                   "envFile": str(env_file), "env": {"BOTH": "from env"}}, timeout=60))
        ok(peer.request("setBreakpoints", {"source": {"path": str(TARGETS_DIR / "MemoryTruth" / "Program.cs")},
                                           "breakpoints": [{"line": marker_line("MemoryTruth", "ready")}]}))
        ok(peer.request("configurationDone"))
        stopped = peer.wait_event("stopped", timeout=60)["body"]
        frame = top_frame(peer, stopped["threadId"])["id"]

        def variable(name: str) -> str:
            expression = f'System.Environment.GetEnvironmentVariable("{name}")'
            return str(ok(peer.request("evaluate", {"expression": expression, "frameId": frame}, timeout=60))["result"])

        assert (variable("FROM_FILE"), variable("BOTH"), variable("SINGLE")) == ('"file value"', '"from env"', '"quoted"')
        ok(peer.request("disconnect", {"terminateDebuggee": True}))
    finally:
        peer.close()


def test_a_missing_env_file_is_refused_by_name(tmp_path: Path) -> None:
    peer = WirePeer("--interpreter=vscode")
    try:
        ok(peer.request("initialize", {"adapterID": "coreclr", "linesStartAt1": True}))
        answer = peer.request("launch", {"program": str(target_dll("MemoryTruth")), "envFile": str(tmp_path / "none.env")},
                              timeout=60)
        assert answer["success"] is False and "none.env" in answer["message"]
    finally:
        peer.close()
