namespace PyInspect.Heap;

/// <summary>Object sizes in 4 bytes each: an object of 4 GiB or more (a rare huge array) is
/// marked and its true size kept aside, so every size read back is exact.</summary>
internal sealed class ObjectSizes : IDisposable
{
    private const uint Huge = uint.MaxValue;
    private readonly MappedArray<uint> _sizes;
    private readonly Dictionary<int, long> _huge = new();

    public ObjectSizes(ArrayStore store, long capacity)
    {
        _sizes = store.New<uint>(capacity);
    }

    public int Length => _sizes.Count;

    /// <summary>All sizes added together (a bound on every retained size).</summary>
    public long Total { get; private set; }

    public long this[int v]
    {
        get
        {
            uint size = _sizes[v];
            return size == Huge ? _huge[v] : size;
        }
    }

    /// <summary>The sizes, in order (huge ones marked; read through the indexer in hot loops that may meet one).</summary>
    public ReadOnlySpan<uint> Narrow => _sizes.Span;

    /// <summary>The true size when narrow is the marker.</summary>
    public long Wide(int v, uint narrow) => narrow == Huge ? _huge[v] : narrow;

    public void AddRange(ReadOnlySpan<long> sizes)
    {
        int at = _sizes.Count;
        _sizes.Resize((long)at + sizes.Length);
        var into = _sizes.Span[at..];
        long total = 0;
        for (int i = 0; i < sizes.Length; i++)
        {
            long size = sizes[i];
            total += size;
            if (size >= Huge)
            {
                _huge[at + i] = size;
                into[i] = Huge;
            }
            else
                into[i] = (uint)size;
        }
        Total += total;
    }

    public void Trim() => _sizes.Trim();

    public void Dispose() => _sizes.Dispose();
}
