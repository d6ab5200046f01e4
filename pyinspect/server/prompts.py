"""What the server teaches an agent about memory and hangs: the leak workflow and the hang
and crash triage, in the server's instructions, and the ``find_memory_leak`` prompt."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

__all__ = ["HEAP_INSTRUCTIONS", "TRIAGE_INSTRUCTIONS", "leak_hunt", "register_prompt"]

HEAP_INSTRUCTIONS = """For memory (a leak, a spike, high memory): open a heap with heap_attach {pid} (the
process keeps running, no debugger), dump_open {path} (dump_create writes one), or use a
paused debug session. Start with diagnose: what is wrong in one answer (a hang, starvation,
a crash, what holds the memory and through which root), ranked, each finding with its
evidence and nextCalls. Then: heap_stats (what is live, by type); for a leak heap_snapshot,
exercise the program, heap_snapshot, heap_diff (what grew, growth first); heap_instances of
the top type for addresses; heap_retention {address} (the static, handle or stack frame
that keeps it alive, each field on the way); heap_retained (what freeing it would save).
heap_strings, heap_segments and heap_finalizer_queue for duplicates, fragmentation and
finalizers. Every heap answer names its source and says mayHaveChanged for a live process;
its completeness says whether the heap was read whole (a damaged dump: the unread ranges in
stoppedSegments); DUMP_DAMAGED means the dump faulted the reader there: ask again or open another.
Over time: trace_start {pid} before exercising the program and trace_stop after it name the
code that allocates each type (allocations[].topStacks), every GC and its pause, and the
runtime's counters."""

TRIAGE_INSTRUCTIONS = """For a hang or a crash (why is it stuck, why did it die), open the heap the same way (a
dump: dump_open; a running process: heap_attach), ask diagnose first (deadlocks, thread-pool
starvation, async work nothing can complete, a blocked finalizer, the killing exception), then
for detail: heap_threads (every thread's
stack with file:line, blockedIn and waitingFor; blocked threads first); heap_locks (owners,
waiters, and deadlocks named as cycles "thread A holds X and waits for Y; thread B holds Y
and waits for X"); heap_async (async chains stuck on a task nothing will complete, with the
await's file:line); heap_exceptions (a crash dump's killing exception first, with its stack
and inner exception); heap_threadpool. A frame's objects go on to heap_object and
heap_retention."""


def leak_hunt(pid: int | None = None, scenario: str | None = None) -> str:
    """The steps of a leak hunt, with the tool calls in order."""
    opening = (f"1. heap_attach {{\"pid\": {pid}}} (the process keeps running)." if pid is not None else
               "1. Open the heap: heap_attach {pid} for a running process, dump_open {path} for a dump, "
               "or pause a debug session (debug_launch/debug_attach, then a breakpoint or debug_pause).")
    exercise = scenario or "the operation suspected of leaking (repeat it enough times to stand out)"
    return "\n".join([
        "Find what leaks memory in this .NET process, with pyinspect's heap tools:",
        opening,
        ("2. diagnose: what is wrong now, ranked; a retained-memory finding names the owner, its root and the path "
         "(its nextCalls go on from there). Then heap_stats {\"filter\": \"live\"}: the biggest live types now."),
        "3. heap_snapshot (note its snapshotId).",
        ("4. trace_start" + (f" {{\"pid\": {pid}}}" if pid is not None else "") + ": record the runtime's "
         "allocation samples with their call stacks while you exercise the program."),
        f"5. Exercise the program: {exercise}. In a debug session, debug_continue and pause again.",
        "6. heap_snapshot again, then heap_diff: the first rows (largest sizeDelta, countDelta) are the suspects.",
        ("7. trace_stop: in allocations, the row of the top suspect type; its topStacks[0].method is the code "
         "that allocates it (estimates: samples says how many sampled events; share is that stack's part)."),
        "8. heap_instances {\"type_name\": <the top type>} for addresses of its objects.",
        ("9. heap_retention {\"address\": <one of them>}: the root (a static field, a handle, a stack frame) and "
        "each field on the path that keeps it alive."),
        "10. heap_retained {\"addresses\": [<the holder on that path>]}: how many bytes it keeps alive.",
        ("Report: the leaking type, its growth per exercise, the method that allocates it, the chain of fields "
        "from the root, and the fix (remove the entries, bound the cache, unsubscribe the event, dispose)."),
        ("Step 1's answer carries a handle: keep it and pass it as handle to every later call on this heap (required "
         "with protocol 2026-07-28 over HTTP; elsewhere it still names this heap after you open another); "
         "trace_start answers a recording handle of its own for trace_stop. When done, handle_close each handle."),
    ])


def register_prompt(mcp: MCPServer) -> None:
    mcp.prompt(name="find_memory_leak", title="Find a Memory Leak",
               description="The leak workflow with the heap tools and a recording: snapshot, trace_start, "
                           "exercise, snapshot, diff, trace_stop (the allocating stack), instances, retention path, "
                           "retained size.")(leak_hunt)
