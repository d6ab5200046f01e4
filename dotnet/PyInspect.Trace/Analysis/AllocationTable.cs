using PyInspect.Trace.Records;

namespace PyInspect.Trace.Analysis;

/// <summary>Allocation samples gathered per type and per stack, each with the bytes (and
/// objects) it stands for, turned into records with the top stacks per type.</summary>
public sealed class AllocationTable
{
    /// <summary>Mean bytes between two randomized samples (the runtime's sampling distance).</summary>
    public const double SamplingMeanBytes = 100 * 1024;

    private readonly Dictionary<string, TypeTotals> _types = new();

    public long Samples { get; private set; }

    /// <summary>One AllocationTick: AllocationAmount bytes since the last tick, charged to the
    /// type of the object that crossed the threshold.</summary>
    public void AddTick(string type, long amount, IReadOnlyList<string> frames) =>
        Add(type, amount, 1, frames);

    /// <summary>One AllocationSampled: an object of objectSize bytes is sampled with probability
    /// p = 1 - exp(-size / mean), so it stands for size / p bytes and 1 / p objects.</summary>
    public void AddRandomized(string type, long objectSize, IReadOnlyList<string> frames)
    {
        double p = 1 - Math.Exp(-objectSize / SamplingMeanBytes);
        if (p <= 0) return;
        Add(type, objectSize / p, 1 / p, frames);
    }

    private void Add(string type, double bytes, double count, IReadOnlyList<string> frames)
    {
        Samples++;
        if (!_types.TryGetValue(type, out var totals)) _types[type] = totals = new TypeTotals();
        totals.Bytes += bytes;
        totals.Count += count;
        totals.Samples++;
        string key = string.Join("\n", frames);
        if (!totals.Stacks.TryGetValue(key, out var stack)) totals.Stacks[key] = stack = new StackTotals(frames);
        stack.Bytes += bytes;
        stack.Samples++;
    }

    public IReadOnlyList<AllocationRecord> Records(int maxTypes, int maxStacks) =>
        _types.OrderByDescending(t => t.Value.Bytes).Take(maxTypes)
            .Select(t => new AllocationRecord(t.Key, (long)t.Value.Bytes, (long)Math.Round(t.Value.Count), t.Value.Samples,
                t.Value.Stacks.Values.OrderByDescending(s => s.Samples).ThenByDescending(s => s.Bytes).Take(maxStacks)
                    .Select(s => new StackRecord(StackFrames.FirstUserFrame(s.Frames), s.Frames, s.Samples,
                        Math.Round((double)s.Samples / t.Value.Samples, 4), (long)s.Bytes))
                    .ToList()))
            .ToList();

    private sealed class TypeTotals
    {
        public double Bytes;
        public double Count;
        public long Samples;
        public readonly Dictionary<string, StackTotals> Stacks = new();
    }

    private sealed class StackTotals(IReadOnlyList<string> frames)
    {
        public IReadOnlyList<string> Frames { get; } = frames;
        public double Bytes;
        public long Samples;
    }
}
