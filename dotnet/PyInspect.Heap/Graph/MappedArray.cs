using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

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
        Count = (int)count;
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

/// <summary>mmap, mremap and munmap, for <see cref="MappedArray{T}"/> (Linux).</summary>
internal static unsafe class Libc
{
    private const int ProtRead = 1, ProtWrite = 2, MapShared = 1, MapPrivate = 2, MapAnonymous = 0x20, MapNoReserve = 0x4000;
    private const int MremapMayMove = 1;

    [DllImport("libc", SetLastError = true)]
    private static extern void* mmap(void* address, nuint length, int protection, int flags, int fd, long offset);

    [DllImport("libc", SetLastError = true)]
    private static extern void* mremap(void* oldAddress, nuint oldLength, nuint newLength, int flags);

    [DllImport("libc", SetLastError = true)]
    private static extern int munmap(void* address, nuint length);

    [DllImport("libc", SetLastError = true)]
    private static extern int ftruncate(int fd, long length);

    [DllImport("libc", SetLastError = true)]
    private static extern int close(int fd);

    [DllImport("libc", SetLastError = true)]
    private static extern int open(string path, int flags, int mode);

    [DllImport("libc", SetLastError = true)]
    private static extern int unlink(string path);

    /// <summary>A new file in folder, already unlinked: it lives as long as its descriptor.</summary>
    public static int OpenUnlinked(string folder)
    {
        const int ReadWrite = 2, Create = 0x40, Exclusive = 0x80, CloseOnExec = 0x80000;
        string path = Path.Combine(folder, $"pyinspect-graph-{Environment.ProcessId}-{Guid.NewGuid():N}.bin");
        int fd = open(path, ReadWrite | Create | Exclusive | CloseOnExec, 0x180);
        if (fd < 0)
            throw new HeapTargetException("INVALID_PARAMETER",
                $"cannot create a work file in {folder} (errno {Marshal.GetLastPInvokeError()})");
        unlink(path);
        return fd;
    }

    public static void* Map(int fd, long bytes)
    {
        if (fd >= 0 && ftruncate(fd, bytes) != 0)
            throw Failure("ftruncate", bytes);
        int flags = fd >= 0 ? MapShared : MapPrivate | MapAnonymous | MapNoReserve;
        void* data = mmap(null, (nuint)bytes, ProtRead | ProtWrite, flags, fd, 0);
        if (data == (void*)-1)
            throw Failure("mmap", bytes);
        return data;
    }

    public static void* Remap(int fd, void* data, long oldBytes, long newBytes)
    {
        if (fd >= 0 && newBytes > oldBytes && ftruncate(fd, newBytes) != 0)
            throw Failure("ftruncate", newBytes);
        void* moved = mremap(data, (nuint)oldBytes, (nuint)newBytes, MremapMayMove);
        if (moved == (void*)-1)
            throw Failure("mremap", newBytes);
        if (fd >= 0 && newBytes < oldBytes)
            ftruncate(fd, newBytes);
        return moved;
    }

    public static void Unmap(void* data, long bytes, int fd)
    {
        munmap(data, (nuint)bytes);
        if (fd >= 0)
            close(fd);
    }

    private static HeapTargetException Failure(string call, long bytes) => new(
        "HEAP_READ_ERROR", $"{call} of {bytes} bytes for the heap graph failed (errno {Marshal.GetLastPInvokeError()}): "
        + "not enough memory or disk; give a work folder with room, or a lower memory limit");
}
