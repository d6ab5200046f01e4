using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace PyInspect.Heap;

/// <summary>Retained sizes in 5 bytes each (a low 4-byte part and a high byte side by side: up
/// to 1 TiB, so every value read back is exact), where 8-byte longs would take 3 more per object.
/// Object sizes are not multiples of a unit (a byte array's is its length plus a header),
/// so the sum is kept to the byte.</summary>
internal sealed class RetainedArray : IDisposable
{
    private readonly MappedArray<FiveBytes> _values;

    [StructLayout(LayoutKind.Sequential, Pack = 1)]
    private struct FiveBytes
    {
        private uint _low;
        private byte _high;

        public long Value
        {
            readonly get => (long)_high << 32 | _low;
            set => (_low, _high) = ((uint)value, (byte)(value >> 32));
        }
    }

    public RetainedArray(ArrayStore store, int count, ObjectSizes sizes)
    {
        if (sizes.Total >> 40 != 0)
            throw new HeapTargetException("HEAP_READ_ERROR", $"objects of {sizes.Total} bytes in all: more than 1 TiB");
        _values = store.Sized<FiveBytes>(count);
    }

    public int Length => _values.Count;

    public long this[int v] => _values[v].Value;

    /// <summary>Sums in reverse depth-first preorder (every node after its immediate
    /// dominator there): each node's size added to itself, then its total to its dominator.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public void Sum(ReadOnlySpan<int> idom, ObjectSizes sizes, ReadOnlySpan<int> preorder, CancellationToken cancel = default)
    {
        var narrow = sizes.Narrow;
        var retained = _values.Span;
        for (int block = preorder.Length - 1; block >= 1; block -= Checkpoint.Block)
        {
            cancel.ThrowIfCancellationRequested(); // between blocks: the loop itself stays as it was
            for (int i = block, end = Math.Max(1, block - Checkpoint.Block + 1); i >= end; i--)
            {
                int v = preorder[i];
                long total = retained[v].Value + sizes.Wide(v, narrow[v]);
                retained[v].Value = total;
                retained[idom[v]].Value += total;
            }
        }
        if (preorder.Length > 0 && preorder[0] < narrow.Length) // the root is an object (not the super-root)
            retained[preorder[0]].Value += sizes[preorder[0]];
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
        _values.Dispose();
    }
}
