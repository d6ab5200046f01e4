"""Matching stack roots to the debugger's frames: same thread, same method, same object;
anything else stays unnamed."""

from __future__ import annotations

from collections.abc import Sequence

from pyinspect.heap.stack_locals import method_key, name_locals, root_method
from pyinspect.models.heapgraph import PathRoot, PathStep, RetentionPath, RetentionPaths

OBJ = 0x7F0010


class Stacks:
    """Thread 42: a leaf frame of another method holding the object too, then Main."""

    def __init__(self) -> None:
        self.frames = {42: ["App.Worker.Run()", "App.Program.Main()"]}
        self.variables = {(42, 0): [("other", OBJ)], (42, 1): [("args", 0x1), ("orders", OBJ), ("copy", OBJ)]}
        self.asked: list[tuple[int, int]] = []

    def frame_methods(self, thread: int) -> Sequence[str] | None:
        return self.frames.get(thread)

    def frame_variables(self, thread: int, frame: int) -> Sequence[tuple[str, int]]:
        self.asked.append((thread, frame))
        return self.variables[(thread, frame)]


def _paths(*roots: PathRoot) -> RetentionPaths:
    steps = (PathStep(address=hex(OBJ), type="App.Order[]"),)
    return RetentionPaths(address=hex(OBJ), type="App.Order[]", complete=True, reachable=True,
                          paths=tuple(RetentionPath(root=r, steps=steps) for r in roots))


def test_method_keys_of_clrmd_and_the_debugger_compare() -> None:
    assert method_key("Ns.Outer+Inner.M(System.Int32)") == method_key("Ns.Outer.Inner.M()") == "Ns.Outer.Inner.M"
    assert root_method("thread 1: Program.<Main>$(System.String[])") == "Program.<Main>$"
    # as ClrMD and the adapter write a lambda, a generic type, a state machine, a local function
    assert method_key("Program+<>c__DisplayClass0_0.<<Main>$>b__1()") == method_key(
        "Program.<>c__DisplayClass0_0.<<Main>$>b__1()")
    assert method_key("App.Worker+<>c__DisplayClass3_0.<Run>b__0()") == method_key(
        "App.Worker.Run.AnonymousMethod__0()") == "App.Worker.Run.AnonymousMethod__0"
    assert method_key("App.Cache<System.Func<System.Int32>>.Get(System.String)") == method_key(
        "App.Cache.Get()") == "App.Cache.Get"
    assert method_key("App.Cache`1.Get()") == "App.Cache.Get"
    assert method_key("App.Jobs+<RunAsync>d__4.MoveNext()") == method_key("App.Jobs.RunAsync()")
    assert method_key("App.Jobs.<Run>g__Helper|1_0(Int32)") == method_key("App.Jobs.Run.Helper()")
    assert root_method("thread 1: ?") is None and root_method("App.Cache.Items") is None


def test_a_stack_root_is_named_by_the_variables_of_its_own_frame_only() -> None:
    stacks = Stacks()
    named = name_locals(_paths(PathRoot(kind="stack", name="thread 1: App.Program.Main(System.String[])", thread=42)),
                        stacks)
    assert named.paths[0].root.local == "orders, copy"
    assert stacks.asked == [(42, 1)]  # the other method's frame is not read


def test_unmatched_roots_stay_unnamed() -> None:
    roots = [PathRoot(kind="stack", name="thread 1: App.Program.Elsewhere()", thread=42),
             PathRoot(kind="stack", name="thread 2: App.Program.Main()", thread=7),  # unknown to the debugger
             PathRoot(kind="static", name="App.Program.Main", thread=None)]
    named = name_locals(_paths(*roots), Stacks())
    assert [p.root for p in named.paths] == roots
