using System.Diagnostics;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Analysis;
using Microsoft.Diagnostics.Tracing.Etlx;
using PyInspect.Trace.Records;
using TraceLog = Microsoft.Diagnostics.Tracing.Etlx.TraceLog;

namespace PyInspect.Trace.Analysis;

/// <summary>Reads one .nettrace file into the answer's tables. TraceLog (an .etlx beside the
/// file) resolves managed stacks from the method load and rundown events.</summary>
public static class TraceReader
{
    public sealed record Window(int Pid, double Seconds, bool TargetExited,
        bool Allocations, bool Gc, int MaxTypes, int MaxStacks);

    public static TraceAnswer Read(string nettrace, Window window)
    {
        var clock = Stopwatch.StartNew();
        string etlx = Path.ChangeExtension(nettrace, ".etlx");
        TraceLog.CreateFromEventPipeDataFile(nettrace, etlx, new TraceLogOptions { ContinueOnError = true });
        try
        {
            using var log = new TraceLog(etlx);
            var source = log.Events.GetSource();
            source.NeedLoadedDotNetRuntimes();
            // Both samplers are asked for; on .NET 10+ the randomized one answers and wins.
            var sampled = new AllocationTable();
            var ticks = new AllocationTable();
            var counters = new CounterSeries();
            long events = 0;
            source.AllEvents += _ => events++;
            if (window.Allocations)
            {
                source.Clr.AllocationSampling += data =>
                    sampled.AddRandomized(data.TypeName, data.ObjectSize, StackFrames.Managed(data.CallStack()));
                source.Clr.GCAllocationTick += data =>
                    ticks.AddTick(data.TypeName, data.AllocationAmount64, StackFrames.Managed(data.CallStack()));
            }
            source.Process();
            var gcs = window.Gc
                ? GcList.Records(source.Processes().Select(p => p.LoadedDotNetRuntime()).Where(r => r is not null)
                    .SelectMany(r => r!.GC.GCs))
                : [];
            // TraceLog does not pass EventSource events through: counters come from a plain pass.
            if (window.Gc) events += ReadCounters(nettrace, counters);
            double seconds = clock.Elapsed.TotalSeconds;
            var allocations = sampled.Samples > 0 ? sampled : ticks;
            string? allocationEvent = allocations.Samples == 0 ? null : sampled.Samples > 0 ? "AllocationSampled" : "AllocationTick";
            var sampling = new SamplingRecord(allocationEvent, Method(allocationEvent), window.Gc, window.Gc, allocations.Samples);
            return new TraceAnswer(window.Pid, Math.Round(window.Seconds, 3), window.TargetExited,
                sampling, allocations.Records(window.MaxTypes, window.MaxStacks), gcs, counters.Samples,
                new ParseRecord(events, new FileInfo(nettrace).Length, Math.Round(seconds, 3), Math.Round(events / Math.Max(seconds, 1e-6))));
        }
        finally
        {
            File.Delete(etlx);
        }
    }

    private static long ReadCounters(string nettrace, CounterSeries counters)
    {
        using var source = new EventPipeEventSource(nettrace);
        long events = 0;
        source.Dynamic.All += data =>
        {
            if (data.ProviderName != "System.Runtime") return;
            events++;
            counters.Add(data);
        };
        source.Process();
        return events;
    }

    private static string? Method(string? allocationEvent) => allocationEvent switch
    {
        "AllocationSampled" => "randomized sampling, one sample per ~100 KB on average; bytes = size / (1 - exp(-size / 100 KB)) per sample",
        "AllocationTick" => "AllocationTick, one event per ~100 KB allocated, charged to the type that crossed the threshold",
        _ => null,
    };
}
