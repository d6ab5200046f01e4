namespace PyInspect.Heap;

/// <summary>Retained sizes in 5 bytes each (a low 4-byte part and a high byte: up to 1 TiB,
/// so every value read back is exact), where 8-byte longs would take 3 more per object.
/// Object sizes are not multiples of a unit (a byte array's is its length plus a header),
/// so the sum is kept to the byte.</summary>
internal sealed class RetainedArray : IDisposable
{
    private readonly MappedArray<uint> _low;
    private readonly MappedArray<byte> _high;

    public RetainedArray(ArrayStore store, int count, ObjectSizes sizes)
    {
        if (sizes.Total >> 40 != 0)
            throw new HeapTargetException("HEAP_READ_ERROR", $"objects of {sizes.Total} bytes in all: more than 1 TiB");
        _low = store.Sized<uint>(count);
        _high = store.Sized<byte>(count);
    }

    public int Length => _low.Count;

    public long this[int v] => (long)_high[v] << 32 | _low[v];

    /// <summary>Sums in reverse depth-first preorder (every node after its immediate
    /// dominator there): each node's size added to itself, then its total to its dominator.</summary>
    public void Sum(ReadOnlySpan<int> idom, ObjectSizes sizes, ReadOnlySpan<int> preorder)
    {
        var narrow = sizes.Narrow;
        var low = _low.Span;
        var high = _high.Span;
        for (int i = preorder.Length - 1; i >= 1; i--)
        {
            int v = preorder[i], d = idom[v];
            long total = ((long)high[v] << 32 | low[v]) + sizes.Wide(v, narrow[v]);
            (low[v], high[v]) = ((uint)total, (byte)(total >> 32));
            long above = ((long)high[d] << 32 | low[d]) + total;
            (low[d], high[d]) = ((uint)above, (byte)(above >> 32));
        }
        if (preorder.Length > 0 && preorder[0] < narrow.Length) // the root is an object (not the super-root)
        {
            int r = preorder[0];
            long total = this[r] + sizes[r];
            (low[r], high[r]) = ((uint)total, (byte)(total >> 32));
        }
    }

    /// <summary>Values from start on, as bytes, into block (for writing and comparing); the count copied.</summary>
    public int CopyTo(int start, Span<long> block)
    {
        int count = Math.Min(block.Length, Length - start);
        for (int i = 0; i < count; i++)
            block[i] = this[start + i];
        return count;
    }

    public void Dispose()
    {
        _low.Dispose();
        _high.Dispose();
    }
}
