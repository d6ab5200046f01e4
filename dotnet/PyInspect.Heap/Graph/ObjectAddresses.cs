using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>
/// Object addresses in 4 bytes each: objects are 8-byte aligned, so address >> 3 is kept in
/// 32 bits and the bits above (which 32 GiB window) once per run of consecutive objects in the
/// same window (a handful of runs for a heap walked in address order). Every address read
/// back is exact.
/// </summary>
internal sealed class ObjectAddresses : IDisposable
{
    private const int LowShift = 3, HighShift = 35;
    private readonly MappedArray<uint> _low;
    private readonly List<int> _runStarts = new();
    private readonly List<ulong> _runHighs = new();
    private int[] _starts = [];
    private ulong[] _highs = [];

    public ObjectAddresses(ArrayStore store, long capacity)
    {
        _low = store.New<uint>(capacity);
    }

    public int Count => _low.Count;

    public int Length => _low.Count;

    public ulong this[int v]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _highs[RunOf(v)] << HighShift | (ulong)_low[v] << LowShift;
    }

    /// <summary>Whether object v starts at address (the low part compared first: most answers are no).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public unsafe bool Is(int v, ulong address) =>
        (uint)v < (uint)Count && _low.Pointer[v] == (uint)(address >> LowShift) && (address & 7) == 0
        && _highs[RunOf(v)] == address >> HighShift;

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void AddRange(ReadOnlySpan<ulong> addresses)
    {
        int at = _low.Count;
        _low.Resize((long)at + addresses.Length);
        var into = _low.Span[at..];
        ulong high = _runHighs.Count == 0 ? ulong.MaxValue : _runHighs[^1], misaligned = 0;
        for (int i = 0; i < addresses.Length; i++)
        {
            ulong address = addresses[i];
            misaligned |= address & 7;
            if (address >> HighShift != high)
            {
                high = address >> HighShift;
                _runStarts.Add(at + i);
                _runHighs.Add(high);
            }
            into[i] = (uint)(address >> LowShift);
        }
        if (misaligned != 0)
            throw new HeapTargetException("HEAP_READ_ERROR", "an object address not 8-byte aligned");
        (_starts, _highs) = (_runStarts.ToArray(), _runHighs.ToArray());
    }

    public void Trim() => _low.Trim();

    /// <summary>Addresses from start on into block; the count copied.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public int CopyTo(int start, Span<ulong> block)
    {
        int count = Math.Min(block.Length, Count - start);
        var low = _low.Span.Slice(start, count);
        int r = count > 0 ? RunOf(start) : 0;
        for (int i = 0; i < count;)
        {
            int end = r + 1 < _starts.Length ? Math.Min(count, _starts[r + 1] - start) : count;
            ulong high = _highs[r++] << HighShift;
            for (; i < end; i++)
                block[i] = high | (ulong)low[i] << LowShift;
        }
        return count;
    }

    /// <summary>Whether every address is above the one before.</summary>
    public bool Ascending()
    {
        var low = _low.Span;
        for (int r = 0; r < _starts.Length; r++)
        {
            if (r > 0 && _highs[r] <= _highs[r - 1])
                return false;
            int end = r + 1 < _starts.Length ? _starts[r + 1] : Count;
            for (int i = _starts[r] + 1; i < end; i++)
                if (low[i] <= low[i - 1])
                    return false;
        }
        return true;
    }

    /// <summary>Array.BinarySearch's answer for address among objects [lo, hi) (ascending addresses
    /// only): its index, or the complement of the first index above it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public int Search(ulong address, int lo, int hi)
    {
        ulong high = address >> HighShift;
        var highs = _highs;
        int r = 0;
        while (r < highs.Length && highs[r] < high) // a handful of runs
            r++;
        if (r == highs.Length || highs[r] != high) // no object in that window: the first run above it
            return ~Math.Clamp(r < _starts.Length ? _starts[r] : Count, lo, hi);
        int runStart = _starts[r], runEnd = r + 1 < _starts.Length ? _starts[r + 1] : Count;
        int from = Math.Max(lo, runStart), to = Math.Min(hi, runEnd);
        if (from >= to)
            return ~Math.Clamp(runStart, lo, hi);
        uint key = (uint)(address >> LowShift);
        int at = _low.Span[from..to].BinarySearch(key);
        if (at < 0)
            return ~(from + ~at);
        // an unaligned address lies after the object starting below it
        return (address & 7) == 0 ? from + at : ~(from + at + 1);
    }

    /// <summary>The run holding object v (a scan: a handful of runs; a binary search beyond).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int RunOf(int v)
    {
        var starts = _starts;
        if (starts.Length > 16)
        {
            int at = Array.BinarySearch(starts, v);
            return at >= 0 ? at : ~at - 1;
        }
        int r = 0;
        while (r + 1 < starts.Length && starts[r + 1] <= v)
            r++;
        return r;
    }

    public void Dispose() => _low.Dispose();
}
