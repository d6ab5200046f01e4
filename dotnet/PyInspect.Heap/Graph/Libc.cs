using System.Runtime.InteropServices;

namespace PyInspect.Heap;

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
