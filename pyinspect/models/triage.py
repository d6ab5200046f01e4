"""Triage records: threads and stacks, locks and deadlocks, async chains, exceptions and
the thread pool of a dump, a process or a paused debuggee (issue 31), read through ClrMD.

Each mirrors a record of dotnet/PyInspect.Heap (ThreadRecord, FrameRecord, LocksRecord,
AsyncChainsRecord, ExceptionsRecord, ThreadPoolRecord), parsed from its JSON; camelCase on
the wire; addresses are hex strings ``0x...``; thread ids are OS ids unless named managed.
"""

from __future__ import annotations

from pydantic import Field

from pyinspect.models.completeness import Completeness
from pyinspect.models.heap_source import HeapSource
from pyinspect.models.memory import TypeCount
from pyinspect.models.wire import WireModel

__all__ = [
    "AsyncChain",
    "AsyncChains",
    "AsyncFrame",
    "Deadlock",
    "DeadlockStep",
    "ExceptionInfo",
    "Exceptions",
    "HeapAsyncAnswer",
    "HeapExceptionsAnswer",
    "HeapLocksAnswer",
    "HeapThreadPoolAnswer",
    "HeapThreadsAnswer",
    "LockInfo",
    "Locks",
    "QueuedItem",
    "QueuedType",
    "StackFrame",
    "StackObject",
    "ThreadInfo",
    "ThreadPoolInfo",
    "ThreadRef",
    "Threads",
    "TypeCount",
]


class StackObject(WireModel):
    """An object a frame's stack slot or register holds (go on with heap_object / heap_retention)."""

    address: str
    type: str
    is_interior: bool = False
    is_pinned: bool = False


class StackFrame(WireModel):
    """A managed frame (method, IL offset, file and line where a PDB is found) or a runtime one."""

    kind: str
    method: str
    module: str | None = None
    il_offset: int | None = None
    file: str | None = None
    line: int | None = None
    symbols: str | None = None
    """Why there is no file and line: the module's PDB was not found and where it was looked
    for (on the module's first such frame in an answer; the method name stays)."""
    instruction_pointer: str | None = None
    stack_pointer: str | None = None
    objects: tuple[StackObject, ...] | None = None


class ExceptionInfo(WireModel):
    """An exception object: type, message, HResult, the stack trace it carries, its inner one;
    thread is the OS id of the thread whose current exception it is."""

    address: str
    type: str
    message: str | None = None
    h_result: int
    thread: int | None = None
    thread_name: str | None = None
    stack: tuple[StackFrame, ...] = ()
    inner: ExceptionInfo | None = None


class ThreadInfo(WireModel):
    """A managed thread: ids, name, state, what it is blocked in and waits for, its stack."""

    os_thread_id: int
    managed_thread_id: int
    name: str | None = None
    state: tuple[str, ...] = ()
    is_background: bool = False
    is_alive: bool = True
    is_finalizer: bool = False
    is_gc: bool = False
    lock_count: int = 0
    blocked_in: str | None = None
    waiting_for: str | None = None
    exception: ExceptionInfo | None = None
    frames: tuple[StackFrame, ...] = ()
    objects_unread: str | None = None


class Threads(WireModel):
    """Every managed thread, and whether every stack could be read (``completeness``)."""

    threads: tuple[ThreadInfo, ...] = ()
    completeness: Completeness


class ThreadRef(WireModel):
    os_thread_id: int
    managed_thread_id: int
    name: str | None = None


class LockInfo(WireModel):
    """A monitor (thin or sync block), a System.Threading.Lock or a SemaphoreSlim."""

    object: str
    type: str
    kind: str
    thin_lock: bool | None = None
    owner: ThreadRef | None = None
    recursion: int = 0
    sync_block_waiters: int | None = None
    waiters: tuple[ThreadRef, ...] = ()
    deadlock: bool = False


class DeadlockStep(WireModel):
    thread: ThreadRef
    holds: str
    holds_type: str
    waits_for: str
    waits_for_type: str


class Deadlock(WireModel):
    description: str
    cycle: tuple[DeadlockStep, ...]


class Locks(WireModel):
    completeness: Completeness
    locks: tuple[LockInfo, ...] = ()
    deadlocks: tuple[Deadlock, ...] = ()


class AsyncFrame(WireModel):
    """One async method of a chain: its state (await index) and that await's file and line."""

    address: str
    method: str
    state_machine_type: str
    state: int
    file: str | None = None
    line: int | None = None
    awaits: str | None = None
    awaits_type: str | None = None
    awaits_status: str | None = None


class AsyncChain(WireModel):
    stuck: bool = False
    reason: str | None = None
    chain: tuple[AsyncFrame, ...] = ()


class AsyncChains(WireModel):
    completeness: Completeness
    state_machines: int
    total: int
    truncated: bool
    chains: tuple[AsyncChain, ...] = ()


class Exceptions(WireModel):
    completeness: Completeness
    total: int
    truncated: bool
    by_type: tuple[TypeCount, ...] = ()
    exceptions: tuple[ExceptionInfo, ...] = ()


class QueuedType(WireModel):
    """How many queued, not yet started work items of one type wait in global and local queues."""

    type: str
    count: int
    global_: int = Field(alias="global")
    local: int


class QueuedItem(WireModel):
    """One queued work item; queue is the global queue's field name or ``local N``."""

    address: str
    type: str
    queue: str
    callback: str | None = None


class ThreadPoolInfo(WireModel):
    initialized: bool = False
    portable: bool = False
    active_worker_threads: int = 0
    idle_worker_threads: int = 0
    retired_worker_threads: int = 0
    min_threads: int = 0
    max_threads: int = 0
    cpu_utilization: int = 0
    pool_threads_on_stacks: int = 0
    queued_work_items: int = 0
    queued_by_type: tuple[QueuedType, ...] = ()
    queued_items: tuple[QueuedItem, ...] = ()


# ---- MCP answers: the records inside the heap tools' envelope (which heap, how fresh) ----

class HeapThreadsAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    threads: tuple[ThreadInfo, ...]
    total: int
    truncated: bool


class HeapLocksAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    locks: tuple[LockInfo, ...]
    deadlocks: tuple[Deadlock, ...]


class HeapAsyncAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    chains: tuple[AsyncChain, ...]
    state_machines: int
    total: int
    truncated: bool


class HeapExceptionsAnswer(WireModel):
    source: HeapSource
    completeness: Completeness
    exceptions: tuple[ExceptionInfo, ...]
    by_type: tuple[TypeCount, ...]
    total: int
    truncated: bool


class HeapThreadPoolAnswer(WireModel):
    source: HeapSource
    thread_pool: ThreadPoolInfo
