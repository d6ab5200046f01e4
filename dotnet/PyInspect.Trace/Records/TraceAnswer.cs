namespace PyInspect.Trace.Records;

/// <summary>One recording, as pyinspect answers it: what was sampled, for how long, and
/// the three tables. Byte figures under allocations are estimates (see Sampling).</summary>
public sealed record TraceAnswer(
    int Pid,
    double WindowSeconds,
    bool TargetExited,
    SamplingRecord Sampling,
    IReadOnlyList<AllocationRecord> Allocations,
    IReadOnlyList<GcRecord> Gcs,
    IReadOnlyList<CounterSampleRecord> Counters,
    ParseRecord Parse);

/// <summary>What the window sampled: the allocation event used (AllocationSampled, the
/// runtime's randomized sampling of .NET 10+, or AllocationTick, ~every 100 KB), whether GCs
/// and counters were on, and how many allocation samples were seen.</summary>
public sealed record SamplingRecord(
    string? AllocationEvent,
    string? AllocationMethod,
    bool Gc,
    bool Counters,
    long AllocationSamples);

/// <summary>Bytes of one type allocated in the window, estimated from Samples events.</summary>
public sealed record AllocationRecord(
    string Type,
    long EstimatedBytes,
    long EstimatedCount,
    long Samples,
    IReadOnlyList<StackRecord> TopStacks);

/// <summary>One allocating stack of a type: Method is the first frame in user code (the
/// allocating method), Frames leaf first; Share is this stack's part of the type's samples.</summary>
public sealed record StackRecord(
    string? Method,
    IReadOnlyList<string> Frames,
    long Samples,
    double Share,
    long EstimatedBytes);

/// <summary>One GC: sizes in bytes per generation (gen0, gen1, gen2, loh, poh), times in
/// milliseconds from the start of the window.</summary>
public sealed record GcRecord(
    int Number,
    int Generation,
    string Reason,
    string Kind,
    double StartMs,
    double PauseMs,
    IReadOnlyDictionary<string, long>? SizesBefore,
    IReadOnlyDictionary<string, long> SizesAfter,
    long PromotedBytes);

/// <summary>One value of one runtime counter (System.Runtime) at Seconds into the window.</summary>
public sealed record CounterSampleRecord(double Seconds, string Name, double Value, string Unit);

/// <summary>How much the recorder parsed and how fast.</summary>
public sealed record ParseRecord(long Events, long FileBytes, double Seconds, double EventsPerSecond);
