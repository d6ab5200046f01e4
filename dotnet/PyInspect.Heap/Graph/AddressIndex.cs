namespace PyInspect.Heap;

/// <summary>Address to object index by binary search over the walk's addresses (sorted
/// once through a permutation when the segments were not walked in address order).</summary>
internal sealed class AddressIndex
{
    private readonly ulong[] _sorted;
    private readonly int[]? _indexOf;
    private readonly long[] _sizes;
    private readonly ulong[] _addresses;

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
            return;
        }
        _sorted = (ulong[])addresses.Clone();
        _indexOf = new int[addresses.Length];
        for (int i = 0; i < _indexOf.Length; i++)
            _indexOf[i] = i;
        Array.Sort(_sorted, _indexOf);
    }

    /// <summary>Bytes of the sorted copy and permutation (0 when the walk was in address order).</summary>
    public long ExtraBytes => _indexOf is null ? 0 : _sorted.Length * 12L;

    /// <summary>The object starting exactly at address, or -1.</summary>
    public int Find(ulong address)
    {
        int at = Array.BinarySearch(_sorted, address);
        if (at < 0)
            return -1;
        return _indexOf is null ? at : _indexOf[at];
    }

    /// <summary>The object containing address (interior pointers), or -1.</summary>
    public int FindContaining(ulong address)
    {
        int at = Array.BinarySearch(_sorted, address);
        if (at >= 0)
            return _indexOf is null ? at : _indexOf[at];
        int below = ~at - 1;
        if (below < 0)
            return -1;
        int index = _indexOf is null ? below : _indexOf[below];
        return address < _addresses[index] + (ulong)_sizes[index] ? index : -1;
    }
}
