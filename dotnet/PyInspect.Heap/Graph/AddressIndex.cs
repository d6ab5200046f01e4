using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>Address to object index by binary search over the walk's addresses (sorted
/// once through a permutation when the segments were not walked in address order).
/// When they were (our walk's order), a bucket table over the address range narrows each
/// search to the few objects of one bucket first: resolving tens of millions of
/// references is then a short search in memory that is already in cache, not 24 steps
/// across the whole array. At most one bucket per object, dropped after the references.</summary>
internal sealed class AddressIndex
{
    private readonly ulong[]? _sortedCopy;
    private readonly int[]? _indexOf;
    private readonly ObjectSizes _sizes;
    private readonly ObjectAddresses _addresses;
    private MappedArray<int>? _buckets;
    private readonly ulong _base;
    private readonly int _shift;

    public AddressIndex(ArrayStore store, ObjectAddresses addresses, ObjectSizes sizes)
    {
        _addresses = addresses;
        _sizes = sizes;
        if (addresses.Ascending())
        {
            if (addresses.Count > 0)
                (_buckets, _base, _shift) = Buckets(store, addresses);
            return;
        }
        _sortedCopy = new ulong[addresses.Count];
        addresses.CopyTo(0, _sortedCopy);
        _indexOf = new int[_sortedCopy.Length];
        for (int i = 0; i < _indexOf.Length; i++)
            _indexOf[i] = i;
        Array.Sort(_sortedCopy, _indexOf);
    }

    /// <summary>Bytes of the sorted copy and permutation, or of the bucket table.</summary>
    public long ExtraBytes => (_indexOf is null ? 0 : _indexOf.Length * 12L) + (_buckets?.Count ?? 0) * 4L;

    /// <summary>Drop the bucket table once the bulk of the lookups is done (the references):
    /// a lookup after that is a plain binary search, and its memory is free before the dominator pass.</summary>
    public void DropBuckets()
    {
        var buckets = _buckets;
        _buckets = null;
        buckets?.Dispose();
    }

    /// <summary>buckets[b] = the first object at or above base + (b &lt;&lt; shift); at most one
    /// bucket per object, at least 256 bytes wide.</summary>
    private static (MappedArray<int> Buckets, ulong Base, int Shift) Buckets(ArrayStore store, ObjectAddresses sorted)
    {
        int n = sorted.Count;
        ulong low = sorted[0], span = sorted[n - 1] - low;
        int shift = 8;
        while ((span >> shift) > (ulong)n)
            shift++;
        var table = store.Sized<int>((long)(span >> shift) + 2);
        var buckets = table.Span;
        var block = new ulong[1 << 16];
        int blockStart = 0, blockCount = sorted.CopyTo(0, block), filled = 0;
        for (int i = 0; i < n; i++) // object i starts every bucket after its predecessor's up to its own
        {
            if (i == blockStart + blockCount)
                (blockStart, blockCount) = (i, sorted.CopyTo(i, block));
            int b = (int)((block[i - blockStart] - low) >> shift);
            for (; filled <= b; filled++)
                buckets[filled] = i;
        }
        for (; filled < buckets.Length; filled++)
            buckets[filled] = n;
        return (table, low, shift);
    }

    /// <summary>The object starting exactly at address, or -1.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public int Find(ulong address)
    {
        int at = Search(address);
        if (at < 0)
            return -1;
        return _indexOf is null ? at : _indexOf[at];
    }

    /// <summary>Array.BinarySearch's answer over the sorted addresses (~insertion point when absent).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private int Search(ulong address)
    {
        if (_sortedCopy is not null)
            return Array.BinarySearch(_sortedCopy, address);
        int n = _addresses.Count;
        if (_buckets is null)
            return _addresses.Search(address, 0, n);
        var buckets = _buckets.Span;
        if (address < _base)
            return ~0;
        ulong b = (address - _base) >> _shift;
        if (b >= (ulong)buckets.Length - 1)
            return _addresses.Search(address, n - 1, n);
        return _addresses.Search(address, buckets[(int)b], buckets[(int)b + 1]);
    }

    /// <summary>The object containing address (interior pointers), or -1.</summary>
    public int FindContaining(ulong address)
    {
        int at = Search(address);
        if (at >= 0)
            return _indexOf is null ? at : _indexOf[at];
        int below = ~at - 1;
        if (below < 0)
            return -1;
        int index = _indexOf is null ? below : _indexOf[below];
        return address < _addresses[index] + (ulong)_sizes[index] ? index : -1;
    }
}
