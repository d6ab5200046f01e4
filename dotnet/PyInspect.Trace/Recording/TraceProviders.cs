using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;

namespace PyInspect.Trace.Recording;

/// <summary>Which runtime events a recording asks for.
/// GC (0x1) at Verbose brings GCStart/End, heap stats, per-heap history and AllocationTick;
/// AllocationSampling (0x80000000000) is the randomized sampling .NET 10 added (event
/// AllocationSampled, id 303); Loader|Jit (0x8|0x10) and the rundown name the methods on
/// the stacks; System.Runtime's EventCounters every second give the counters.</summary>
public static class TraceProviders
{
    public const string Runtime = "Microsoft-Windows-DotNETRuntime";
    public const long GcKeyword = 0x1;
    public const long LoaderKeyword = 0x8;
    public const long JitKeyword = 0x10;
    public const long AllocationSamplingKeyword = 0x80000000000;

    public static IReadOnlyList<EventPipeProvider> For(bool allocations, bool gc, bool randomizedSampling)
    {
        long keywords = GcKeyword;
        if (allocations) keywords |= LoaderKeyword | JitKeyword;
        // One sampler: the randomized one where the runtime has it (.NET 10+, the caller knows
        // the target's version), else AllocationTick, a Verbose event. Both at once would
        // double the stack walks (measured: benchmarks/trace_overhead.py).
        if (allocations && randomizedSampling) keywords |= AllocationSamplingKeyword;
        var level = allocations && !randomizedSampling ? EventLevel.Verbose : EventLevel.Informational;
        var providers = new List<EventPipeProvider> { new(Runtime, level, keywords) };
        if (gc)
        {
            providers.Add(new EventPipeProvider("System.Runtime", EventLevel.Informational, 0,
                new Dictionary<string, string> { ["EventCounterIntervalSec"] = "1" }));
        }
        return providers;
    }
}
