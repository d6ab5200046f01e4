using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>
/// A growable array of T outside the managed heap, in one memory mapping: anonymous memory,
/// or a file in the store's work folder (then the kernel writes pages out to that file
/// instead of the process being killed for memory). Growing remaps the pages (mremap: nothing
/// is copied, no second copy exists at any moment) and <see cref="Dispose"/> returns the
/// memory at once, not when a garbage collection happens to run: the graph's peak memory is
/// the sum of the arrays alive at that moment, nothing more.
/// </summary>
internal sealed unsafe class MappedArray<T> : IDisposable where T : unmanaged
{
    private readonly ArrayStore _store;
    private readonly int _fd;
    private T* _data;
    private long _capacity;

    internal MappedArray(ArrayStore store, long capacity)
    {
        _store = store;
        _fd = store.OpenBacking();
        _capacity = Math.Max(capacity, 4096 / sizeof(T));
        _data = (T*)Libc.Map(_fd, Bytes(_capacity));
    }

    ~MappedArray() => Release();

    public int Count { get; private set; }

    public int Length => Count;

    public T* Pointer => _data;

    public Span<T> Span => new(_data, Count);

    public ref T this[int i]
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            if ((uint)i >= (uint)Count)
                throw new IndexOutOfRangeException();
            return ref _data[i];
        }
    }

    public ref T this[long i] => ref this[checked((int)i)];

    private static long Bytes(long elements) => elements * sizeof(T);

    /// <summary>Set the length (growing keeps the values; new elements are zero).</summary>
    public void Resize(long count)
    {
        if (count > int.MaxValue)
            throw new HeapTargetException("HEAP_READ_ERROR", $"more than {int.MaxValue} elements in one graph array");
        if (count > _capacity)
            Reserve(Math.Max(count, _capacity + _capacity / 2));
        _store.Track(Bytes(count) - Bytes(Count));
        Count = (int)count;
    }

    /// <summary>Give back the memory past Count (after the walk: the arrays end exactly sized).</summary>
    public void Trim()
    {
        long wanted = Math.Max(Count, 4096 / sizeof(T));
        if (wanted < _capacity)
            Reserve(wanted);
    }

    private void Reserve(long capacity)
    {
        _data = (T*)Libc.Remap(_fd, _data, Bytes(_capacity), Bytes(capacity));
        _capacity = capacity;
    }

    public void AddRange(ReadOnlySpan<T> values)
    {
        int at = Count;
        Resize((long)Count + values.Length);
        values.CopyTo(new Span<T>(_data + at, values.Length));
    }

    public void Fill(T value) => Span.Fill(value);

    /// <summary>The same memory seen as an array of U, Count scaled to U's size (this array is left empty).</summary>
    public MappedArray<U> Reinterpret<U>() where U : unmanaged
    {
        var other = new MappedArray<U>(_store, _fd, _data, Bytes(_capacity) / sizeof(U), Bytes(Count) / sizeof(U));
        _data = null;
        _capacity = 0;
        Count = 0;
        GC.SuppressFinalize(this);
        return other;
    }

    private MappedArray(ArrayStore store, int fd, void* data, long capacity, long count)
    {
        _store = store;
        _fd = fd;
        _data = (T*)data;
        _capacity = capacity;
        Count = (int)Math.Min(count, int.MaxValue); // more than a billion references: the first int.MaxValue
    }

    public void Dispose()
    {
        Release();
        GC.SuppressFinalize(this);
    }

    private void Release()
    {
        if (_data == null)
            return;
        Libc.Unmap(_data, Bytes(_capacity), _fd);
        _store.Track(-Bytes(Count));
        _data = null;
        _capacity = 0;
        Count = 0;
    }
}
