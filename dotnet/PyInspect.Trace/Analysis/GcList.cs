using Microsoft.Diagnostics.Tracing.Analysis.GC;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;
using PyInspect.Trace.Records;

namespace PyInspect.Trace.Analysis;

/// <summary>Every complete GC of the window as a record, from TraceEvent's GC analysis (the
/// one PerfView's GCStats uses): sizes after from GCHeapStats (exact bytes), sizes before
/// from the per-heap history when the runtime sent it.</summary>
public static class GcList
{
    private const double Mb = 1024 * 1024;
    private static readonly (string Name, Gens Gen)[] Generations =
        [("gen0", Gens.Gen0), ("gen1", Gens.Gen1), ("gen2", Gens.Gen2), ("loh", Gens.GenLargeObj), ("poh", Gens.GenPinObj)];

    public static IReadOnlyList<GcRecord> Records(IEnumerable<TraceGC> gcs) =>
        gcs.Where(gc => gc.IsComplete).Select(Record).ToList();

    private static GcRecord Record(TraceGC gc)
    {
        var stats = gc.HeapStats;
        var after = stats is null
            ? Generations.ToDictionary(g => g.Name, g => (long)(gc.GenSizeAfterMB(g.Gen) * Mb))
            : new Dictionary<string, long>
            {
                ["gen0"] = stats.GenerationSize0, ["gen1"] = stats.GenerationSize1, ["gen2"] = stats.GenerationSize2,
                ["loh"] = stats.GenerationSize3, ["poh"] = stats.GenerationSize4,
            };
        long promoted = stats is null ? (long)(gc.PromotedMB * Mb)
            : stats.TotalPromotedSize0 + stats.TotalPromotedSize1 + stats.TotalPromotedSize2 + stats.TotalPromotedSize3 + stats.TotalPromotedSize4;
        return new GcRecord(gc.Number, gc.Generation, gc.Reason.ToString(), gc.Type.ToString(),
            Math.Round(gc.StartRelativeMSec, 3), Math.Round(gc.PauseDurationMSec, 3), SizesBefore(gc), after, promoted);
    }

    private static Dictionary<string, long>? SizesBefore(TraceGC gc)
    {
        if (gc.PerHeapHistories is null || gc.PerHeapHistories.Count == 0) return null;
        return Generations.ToDictionary(g => g.Name, g => (long)(gc.GenSizeBeforeMB[(int)g.Gen] * Mb));
    }
}
