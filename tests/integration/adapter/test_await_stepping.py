"""Stepping around `await` as a user presses F11/F10 (CompatSample `await`): a step in on an
await of framework code, of a [DebuggerStepThrough] method and (under just my code) of a
[DebuggerNonUserCode] method lands on the next line, never on the method's closing brace; one
on an await of a user method enters it, and a step over its closing brace arrives back on
the caller's await line, as a step out does, also when the caller awaits it through
Task.WhenAll. An async void method too; without just my code the non-user method is entered."""

from __future__ import annotations

from support.adapter_session import launched, ok, output_of, set_breakpoints, top_frame
from support.dap_wire import WirePeer
from support.targets import marker_line

TARGET = "CompatSample"
FILE = "AwaitSteps.cs"
RUN = "CompatSample.AwaitSteps.Run()"
MINE = "CompatSample.AwaitSteps.Mine()"
VOID = "CompatSample.AwaitSteps.FireAndForget()"


class Stepping:
    """A launched debuggee at its first stop, stepped request by request."""

    def __init__(self, peer: WirePeer) -> None:
        self.peer = peer
        self.thread = peer.wait_event("stopped", timeout=30)["body"]["threadId"]

    def where(self) -> tuple[str, int]:
        frame = top_frame(self.peer, self.thread)
        return frame["name"], frame["line"]

    def step(self, command: str) -> tuple[str, int]:
        ok(self.peer.request(command, {"threadId": self.thread}))
        stopped = self.peer.wait_event("stopped", timeout=30)["body"]
        assert stopped["reason"] == "step", stopped
        self.thread = stopped["threadId"]
        return self.where()


def at(name: str, marker: str) -> tuple[str, int]:
    return name, marker_line(TARGET, marker, FILE)


def test_step_in_and_over_around_awaits_under_just_my_code() -> None:
    with launched(TARGET, args=["await"], markers=["await_delay"], file=FILE) as peer:
        steps = Stepping(peer)
        assert steps.where() == at(RUN, "await_delay")
        set_breakpoints(peer, TARGET, [], FILE)
        assert steps.step("stepIn") == at(RUN, "await_step_through"), "framework code: the next line"
        assert steps.step("stepIn") == at(RUN, "await_non_user"), "[DebuggerStepThrough]: the next line"
        assert steps.step("stepIn") == at(RUN, "await_mine"), "[DebuggerNonUserCode]: the next line"
        assert steps.step("stepIn") == at(MINE, "mine_open")
        assert steps.step("next") == at(MINE, "mine_delay")
        assert steps.step("next") == at(MINE, "mine_return")
        assert steps.step("next") == at(MINE, "mine_close")
        assert steps.step("next") == at(RUN, "await_mine"), "off the end: the caller's await line"
        assert steps.step("next") == at(RUN, "await_when_all")
        assert steps.step("stepIn") == at(MINE, "mine_open"), "Task.WhenAll(Mine(5), ...): into Mine"
        assert steps.step("next") == at(MINE, "mine_delay")
        assert steps.step("next") == at(MINE, "mine_return")
        frames = ok(peer.request("stackTrace", {"threadId": steps.thread}))["stackFrames"]
        label = [f["name"] for f in frames].index("[Async] awaiting callers")
        assert (frames[label + 1]["name"], frames[label + 1]["line"]) == at(RUN, "await_when_all"), "through the promise"
        assert steps.step("next") == at(MINE, "mine_close")
        assert steps.step("next") == at(RUN, "await_when_all"), "off the end: Run, awaiting it through Task.WhenAll"
        assert steps.step("next") == at(RUN, "await_void")
        assert steps.step("stepIn") == at(VOID, "void_open")
        assert steps.step("next") == at(VOID, "void_delay")
        assert steps.step("next") == at(VOID, "void_after")
        ok(peer.request("continue", {"threadId": steps.thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0
        assert "await 21\n" in output_of(peer, "stdout")  # 2*2 + 3*3 + 4*2: every await completed once
        assert not [e for e in peer.events if e["event"] == "stopped"]


def test_without_just_my_code_a_step_in_enters_the_non_user_method() -> None:
    with launched(TARGET, args=["await"], markers=["await_step_through"], file=FILE, justMyCode=False) as peer:
        steps = Stepping(peer)
        assert steps.step("stepIn") == at(RUN, "await_non_user"), "[DebuggerStepThrough] is stepped through still"
        name, line = steps.step("stepIn")
        assert name == "CompatSample.Library.Triple()" and line < marker_line(TARGET, "library_delay", FILE)
        assert steps.step("next") == at("CompatSample.Library.Triple()", "library_delay")
        assert steps.step("next") == ("CompatSample.Library.Triple()", marker_line(TARGET, "library_delay", FILE) + 1)
        ok(peer.request("continue", {"threadId": steps.thread}))
        assert peer.wait_event("exited", timeout=30)["body"]["exitCode"] == 0

