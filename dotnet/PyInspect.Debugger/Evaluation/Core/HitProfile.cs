// Where a conditional hit's time goes, for profiling the hit path only: with
// PYINSPECT_HIT_PROFILE set to a file path, each phase's total and count are rewritten to that
// file every 100 hits. Unset (always in normal use) it costs one null check per phase.
using System.Diagnostics;

namespace PyInspect.Debugger.Evaluation.Core;

public static class HitProfile
{
    private static readonly string? Path = Environment.GetEnvironmentVariable("PYINSPECT_HIT_PROFILE");
    private static readonly Dictionary<string, (long Ticks, int Count)> Phases = new(StringComparer.Ordinal);
    private static int _hits;

    /// <summary>A timestamp when profiling, else 0.</summary>
    public static long Start() => Path is null ? 0 : Stopwatch.GetTimestamp();

    /// <summary>Adds the time since `started` to the phase (nothing when not profiling).</summary>
    public static void Add(string phase, long started)
    {
        if (Path is null || started == 0) return;
        long elapsed = Stopwatch.GetTimestamp() - started;
        lock (Phases)
        {
            var (ticks, count) = Phases.GetValueOrDefault(phase);
            Phases[phase] = (ticks + elapsed, count + 1);
        }
    }

    /// <summary>Counts a hit; every 100th rewrites the file (phase, count, microseconds per call and per hit).</summary>
    public static void Hit()
    {
        if (Path is null) return;
        lock (Phases)
        {
            if (++_hits % 100 != 0) return;
            var lines = Phases.Select(p =>
                $"{p.Key}\t{p.Value.Count}\t{p.Value.Ticks * 1e6 / Stopwatch.Frequency / p.Value.Count:F1} us/call\t{p.Value.Ticks * 1e6 / Stopwatch.Frequency / _hits:F1} us/hit");
            File.WriteAllLines(Path, [$"hits\t{_hits}", .. lines]);
        }
    }
}
