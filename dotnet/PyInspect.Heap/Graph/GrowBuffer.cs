using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>A reusable growable array for one segment's walk: cleared and filled again
/// for the next segment without giving its memory back.</summary>
internal sealed class GrowBuffer<T> where T : unmanaged
{
    private T[] _items = new T[1024];

    public int Count { get; private set; }

    public ReadOnlySpan<T> Span => _items.AsSpan(0, Count);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Add(T value)
    {
        if (Count == _items.Length)
            Array.Resize(ref _items, _items.Length * 2);
        _items[Count++] = value;
    }

    public void Truncate(int count) => Count = count;

    public void Clear() => Count = 0;
}
