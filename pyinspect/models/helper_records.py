"""The wire contract with the C# helpers: which model reads each record they write for Python.

The helpers (dotnet/PyInspect.Heap through pythonnet, dotnet/PyInspect.Trace as a process)
serialize their records as camelCase JSON; every record crossing to Python is named here
once, with the model that parses it. tests/integration/heap/test_wire_contract.py reads each
record's serialized names through the built helpers and each model's wire names, and fails
on a field present on one side only, and on a record type missing from this table.
"""

from __future__ import annotations

from pyinspect.models.completeness import Completeness, StoppedSegment
from pyinspect.models.heap import HeapField, HeapObject, TypeStat
from pyinspect.models.heapgraph import (
    DuplicateString,
    FinalizerStat,
    GenerationStat,
    GraphSummary,
    GraphTypeStat,
    HeapLayout,
    Instance,
    PathRoot,
    PathStep,
    RetainedObject,
    RetentionPath,
    RetentionPaths,
    SegmentStat,
    WastedCapacity,
)
from pyinspect.models.memory import (
    CollectionAnalysis,
    CollectionElement,
    InterestingField,
    KeyValuePreview,
    NumericStats,
    ObjectSummary,
    SummaryField,
    TypeCount,
)
from pyinspect.models.trace import (
    AllocationRow,
    CounterSample,
    GcRow,
    ParseFigures,
    Sampling,
    StackRow,
    TraceAnswer,
)
from pyinspect.models.triage import (
    AsyncChain,
    AsyncChains,
    AsyncFrame,
    Deadlock,
    DeadlockStep,
    ExceptionInfo,
    Exceptions,
    LockInfo,
    Locks,
    QueuedItem,
    QueuedType,
    StackFrame,
    StackObject,
    ThreadInfo,
    ThreadPoolInfo,
    ThreadRef,
    Threads,
)
from pyinspect.models.wire import WireModel

__all__ = ["HELPER_RECORDS", "PLAIN_RECORDS", "PYTHON_ONLY_FIELDS"]

HELPER_RECORDS: dict[str, type[WireModel]] = {
    # heap (HeapTarget)
    "PyInspect.Heap.TypeStatRecord": TypeStat,
    "PyInspect.Heap.ObjectRecord": HeapObject,
    "PyInspect.Heap.FieldRecord": HeapField,
    "PyInspect.Heap.CollectionRecord": CollectionAnalysis,
    "PyInspect.Heap.ElementRecord": CollectionElement,
    "PyInspect.Heap.PairRecord": KeyValuePreview,
    "PyInspect.Heap.NumericStatsRecord": NumericStats,
    "PyInspect.Heap.TypeCountRecord": TypeCount,
    "PyInspect.Heap.SummaryRecord": ObjectSummary,
    "PyInspect.Heap.SummaryFieldRecord": SummaryField,
    "PyInspect.Heap.InterestingFieldRecord": InterestingField,
    "PyInspect.Heap.CompletenessRecord": Completeness,
    "PyInspect.Heap.SegmentStopRecord": StoppedSegment,
    # triage
    "PyInspect.Heap.ThreadsRecord": Threads,
    "PyInspect.Heap.ThreadRecord": ThreadInfo,
    "PyInspect.Heap.FrameRecord": StackFrame,
    "PyInspect.Heap.StackObjectRecord": StackObject,
    "PyInspect.Heap.ExceptionRecord": ExceptionInfo,
    "PyInspect.Heap.ExceptionsRecord": Exceptions,
    "PyInspect.Heap.LocksRecord": Locks,
    "PyInspect.Heap.LockRecord": LockInfo,
    "PyInspect.Heap.ThreadRefRecord": ThreadRef,
    "PyInspect.Heap.DeadlockRecord": Deadlock,
    "PyInspect.Heap.DeadlockStepRecord": DeadlockStep,
    "PyInspect.Heap.AsyncChainsRecord": AsyncChains,
    "PyInspect.Heap.AsyncChainRecord": AsyncChain,
    "PyInspect.Heap.AsyncFrameRecord": AsyncFrame,
    "PyInspect.Heap.ThreadPoolRecord": ThreadPoolInfo,
    "PyInspect.Heap.QueuedTypeRecord": QueuedType,
    "PyInspect.Heap.QueuedItemRecord": QueuedItem,
    # heap graph (HeapGraph)
    "PyInspect.Heap.GraphSummaryRecord": GraphSummary,
    "PyInspect.Heap.GraphTypeRecord": GraphTypeStat,
    "PyInspect.Heap.RetainedRecord": RetainedObject,
    "PyInspect.Heap.InstanceRecord": Instance,
    "PyInspect.Heap.RetentionPathsRecord": RetentionPaths,
    "PyInspect.Heap.RetentionPathRecord": RetentionPath,
    "PyInspect.Heap.RootRecord": PathRoot,
    "PyInspect.Heap.PathStepRecord": PathStep,
    "PyInspect.Heap.DuplicateStringRecord": DuplicateString,
    "PyInspect.Heap.HeapLayoutRecord": HeapLayout,
    "PyInspect.Heap.GenerationRecord": GenerationStat,
    "PyInspect.Heap.SegmentRecord": SegmentStat,
    "PyInspect.Heap.FinalizerRecord": FinalizerStat,
    "PyInspect.Heap.WastedCapacityRecord": WastedCapacity,
    # the trace recorder's final line
    "PyInspect.Trace.Records.TraceAnswer": TraceAnswer,
    "PyInspect.Trace.Records.SamplingRecord": Sampling,
    "PyInspect.Trace.Records.AllocationRecord": AllocationRow,
    "PyInspect.Trace.Records.StackRecord": StackRow,
    "PyInspect.Trace.Records.GcRecord": GcRow,
    "PyInspect.Trace.Records.CounterSampleRecord": CounterSample,
    "PyInspect.Trace.Records.ParseRecord": ParseFigures,
}
"""C# record (full name) -> the one model that parses its JSON."""

PLAIN_RECORDS: dict[str, str] = {
    "PyInspect.Heap.DacAttempt": "the DAC lookup's attempts, handed on as the helper writes them (HeapReader.dac_lookup)",
}
"""C# records Python reads as plain JSON (no model), with why."""

PYTHON_ONLY_FIELDS: dict[tuple[type[WireModel], str], str] = {
    (TraceAnswer, "runtimeVersion"): "the recorder's caller adds the target runtime's version",
    (TraceAnswer, "message"): "pyinspect's note when the target exited during the recording",
    (PathRoot, "local"): "a stack root's local name, known only from a paused debug session's frames",
}
"""Wire names a model has and its record does not, each with the reason Python adds it."""
