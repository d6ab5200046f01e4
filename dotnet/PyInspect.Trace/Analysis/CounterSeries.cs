using Microsoft.Diagnostics.Tracing;
using PyInspect.Trace.Records;

namespace PyInspect.Trace.Analysis;

/// <summary>System.Runtime's EventCounters (one payload per counter per interval) as samples:
/// a Mean counter's mean, a Sum counter's increment over the interval.</summary>
public sealed class CounterSeries
{
    public static readonly HashSet<string> Kept =
    [
        "alloc-rate", "time-in-gc", "gen-0-size", "gen-1-size", "gen-2-size", "loh-size", "poh-size",
        "gc-fragmentation", "exception-count", "gc-heap-size", "gen-0-gc-count", "gen-1-gc-count", "gen-2-gc-count",
    ];

    /// <summary>A payload struct (TraceEvent's StructValue) as a dictionary.</summary>
    private static Dictionary<string, object>? Fields(object? value) =>
        value is IEnumerable<KeyValuePair<string, object>> pairs ? pairs.ToDictionary(p => p.Key, p => p.Value) : null;

    private readonly List<CounterSampleRecord> _samples = new();

    public IReadOnlyList<CounterSampleRecord> Samples => _samples;

    public void Add(TraceEvent data)
    {
        if (data.EventName != "EventCounters" || data.PayloadNames.Length == 0 || Fields(data.PayloadValue(0)) is not { } payload) return;
        if (payload.TryGetValue("Payload", out var inner) && Fields(inner) is { } nested) payload = nested;
        string name = payload.TryGetValue("Name", out var n) ? n?.ToString() ?? "" : "";
        if (!Kept.Contains(name)) return;
        bool sum = payload.TryGetValue("CounterType", out var kind) && kind?.ToString() == "Sum";
        object? value = payload.TryGetValue(sum ? "Increment" : "Mean", out var v) ? v : null;
        string unit = payload.TryGetValue("DisplayUnits", out var u) ? u?.ToString() ?? "" : "";
        if (value is null) return;
        _samples.Add(new CounterSampleRecord(Math.Round(data.TimeStampRelativeMSec / 1000, 3), name,
            Convert.ToDouble(value, System.Globalization.CultureInfo.InvariantCulture), unit));
    }
}
