namespace PyInspect.Heap;

/// <summary>Each object's type number in 2 bytes while the heap has fewer than 65,535 types
/// (nearly always), widened once to 4 bytes when a walk meets more.</summary>
internal sealed class TypeIndices : IDisposable
{
    private readonly ArrayStore _store;
    private MappedArray<ushort>? _narrow;
    private MappedArray<int>? _wide;

    public TypeIndices(ArrayStore store, long capacity)
    {
        _store = store;
        _narrow = store.New<ushort>(capacity);
    }

    public int Length => _narrow?.Count ?? _wide!.Count;

    public int this[int v] => _narrow is { } narrow ? narrow[v] : _wide![v];

    /// <summary>Append global[t] for each local type number t.</summary>
    public void AddRange(ReadOnlySpan<int> local, int[] global)
    {
        if (_narrow is not null && global.Length > 0 && global.Max() >= ushort.MaxValue)
            Widen();
        if (_narrow is { } narrow)
        {
            int at = narrow.Count;
            narrow.Resize((long)at + local.Length);
            var into = narrow.Span[at..];
            for (int i = 0; i < local.Length; i++)
                into[i] = (ushort)global[local[i]];
        }
        else
        {
            var wide = _wide!;
            int at = wide.Count;
            wide.Resize((long)at + local.Length);
            var into = wide.Span[at..];
            for (int i = 0; i < local.Length; i++)
                into[i] = global[local[i]];
        }
    }

    private void Widen()
    {
        var narrow = _narrow!;
        var wide = _store.New<int>(narrow.Count + 1024L);
        wide.Resize(narrow.Count);
        var from = narrow.Span;
        var into = wide.Span;
        for (int i = 0; i < from.Length; i++)
            into[i] = from[i];
        narrow.Dispose();
        _narrow = null;
        _wide = wide;
    }

    /// <summary>Types from start on, widened into block (for writing and comparing).</summary>
    public int CopyTo(int start, Span<int> block)
    {
        int count = Math.Min(block.Length, Length - start);
        for (int i = 0; i < count; i++)
            block[i] = this[start + i];
        return count;
    }

    public void Trim()
    {
        _narrow?.Trim();
        _wide?.Trim();
    }

    public void Dispose()
    {
        _narrow?.Dispose();
        _wide?.Dispose();
    }
}
