namespace PyInspect.Heap;

/// <summary>
/// Each object's generation, kept per run of consecutive objects that share one (a region
/// of a regions heap holds one generation: nothing per object), and a byte per object only
/// in a segment that mixes them (an ephemeral segment). Every value read back is exact.
/// </summary>
internal sealed class ObjectGenerations : IDisposable
{
    private const int Mixed = -1;
    private readonly MappedArray<byte> _mixed;
    private readonly List<(int Start, int Generation, int MixedStart)> _runs = new();
    private int[] _starts = [];
    private int _count;

    public ObjectGenerations(ArrayStore store, long capacity)
    {
        _mixed = store.New<byte>(Math.Min(capacity, 1 << 20));
    }

    public int Length => _count;

    public byte this[int v]
    {
        get
        {
            if ((uint)v >= (uint)_count)
                throw new IndexOutOfRangeException();
            int r = Array.BinarySearch(_starts, v);
            var run = _runs[r >= 0 ? r : ~r - 1];
            return run.Generation == Mixed ? _mixed[run.MixedStart + v - run.Start] : (byte)run.Generation;
        }
    }

    /// <summary>One segment's objects' generations, in object order.</summary>
    public void AddRange(ReadOnlySpan<byte> generations)
    {
        if (generations.Length == 0)
            return;
        byte first = generations[0];
        bool same = !generations.ContainsAnyExcept(first);
        if (same && _runs.Count > 0 && _runs[^1].Generation == first)
        {
            _count += generations.Length; // the run before goes on
            return;
        }
        if (same)
            _runs.Add((_count, first, 0));
        else
        {
            _runs.Add((_count, Mixed, _mixed.Count));
            _mixed.AddRange(generations);
        }
        _count += generations.Length;
        _starts = _runs.Select(r => r.Start).ToArray();
    }

    public void Trim() => _mixed.Trim();

    /// <summary>Generations from start on into block; the count copied.</summary>
    public int CopyTo(int start, Span<byte> block)
    {
        int count = Math.Min(block.Length, _count - start);
        int r = count > 0 ? Array.BinarySearch(_starts, start) : 0;
        r = r >= 0 ? r : ~r - 1;
        for (int i = 0; i < count; r++)
        {
            var run = _runs[r];
            int end = Math.Min(count, (r + 1 < _runs.Count ? _runs[r + 1].Start : _count) - start);
            if (run.Generation == Mixed)
                _mixed.Span.Slice(run.MixedStart + start + i - run.Start, end - i).CopyTo(block[i..end]);
            else
                block[i..end].Fill((byte)run.Generation);
            i = end;
        }
        return count;
    }

    public void Dispose() => _mixed.Dispose();
}
