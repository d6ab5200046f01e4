using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>Address to object index by binary search over the walk's addresses (sorted
/// once through a permutation when the segments were not walked in address order).
/// When they were (our walk's order), a bucket table over the address range narrows each
/// search to the few objects of one bucket first: resolving tens of millions of
/// references is then a short search in memory that is already in cache, not 24 steps
/// across the whole array.</summary>
internal sealed class AddressIndex
{
    private readonly ulong[] _sorted;
    private readonly int[]? _indexOf;
    private readonly long[] _sizes;
    private readonly ulong[] _addresses;
    private readonly int[]? _buckets;
    private readonly ulong _base;
    private readonly int _shift;

    public AddressIndex(ulong[] addresses, long[] sizes)
    {
        _addresses = addresses;
        _sizes = sizes;
        bool ordered = true;
        for (int i = 1; i < addresses.Length && ordered; i++)
            ordered = addresses[i - 1] < addresses[i];
        if (ordered)
        {
            _sorted = addresses;
            if (addresses.Length > 0)
                (_buckets, _base, _shift) = Buckets(addresses);
            return;
        }
        _sorted = (ulong[])addresses.Clone();
        _indexOf = new int[addresses.Length];
        for (int i = 0; i < _indexOf.Length; i++)
            _indexOf[i] = i;
        Array.Sort(_sorted, _indexOf);
    }

    /// <summary>Bytes of the sorted copy and permutation, or of the bucket table.</summary>
    public long ExtraBytes => (_indexOf is null ? 0 : _sorted.Length * 12L) + (_buckets?.Length ?? 0) * 4L;

    /// <summary>buckets[b] = the first object at or above base + (b &lt;&lt; shift); at most one
    /// bucket per object (4 bytes each), at least 256 bytes wide.</summary>
    private static (int[] Buckets, ulong Base, int Shift) Buckets(ulong[] sorted)
    {
        ulong low = sorted[0], span = sorted[^1] - low;
        int shift = 8;
        while ((span >> shift) > (ulong)sorted.Length)
            shift++;
        var buckets = new int[(int)(span >> shift) + 2];
        int i = 0;
        for (int b = 0; b < buckets.Length; b++)
        {
            while (i < sorted.Length && ((sorted[i] - low) >> shift) < (ulong)b)
                i++;
            buckets[b] = i;
        }
        return (buckets, low, shift);
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
        var buckets = _buckets;
        if (buckets is null)
            return Array.BinarySearch(_sorted, address);
        if (address < _base)
            return ~0;
        ulong b = (address - _base) >> _shift;
        if (b >= (ulong)buckets.Length - 1)
            return address == _sorted[^1] ? _sorted.Length - 1 : ~_sorted.Length;
        int lo = buckets[b], hi = buckets[b + 1];
        return Array.BinarySearch(_sorted, lo, hi - lo, address);
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
