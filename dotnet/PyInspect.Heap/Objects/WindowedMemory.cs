using System.Runtime.InteropServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Reads small values through one window of target memory, refilled around a miss. A live
/// target pays a system call per ClrMD read; walking a million-element array element by
/// element through this window costs a few hundred reads instead of a million.
/// </summary>
internal sealed class WindowedMemory
{
    private const int WindowSize = 256 * 1024;
    private readonly IMemoryReader _memory;
    private readonly byte[] _window = new byte[WindowSize];
    private ulong _start;
    private int _length;

    public WindowedMemory(IMemoryReader memory)
    {
        _memory = memory;
    }

    public IMemoryReader Reader => _memory;

    public T Read<T>(ulong address) where T : unmanaged
    {
        int size = Marshal.SizeOf<T>();
        if (!Covers(address, size))
            Fill(address, size);
        if (!Covers(address, size))
            return _memory.Read<T>(address);
        return MemoryMarshal.Read<T>(_window.AsSpan((int)(address - _start), size));
    }

    public ulong ReadPointer(ulong address) => Read<ulong>(address);

    private bool Covers(ulong address, int size) =>
        _length > 0 && address >= _start && address + (ulong)size <= _start + (ulong)_length;

    /// <summary>Centre the window on the miss so backward walks (stacks) stay cheap; fall
    /// back to a window starting at the address if the memory before it is unreadable.</summary>
    private void Fill(ulong address, int size)
    {
        ulong centred = address > WindowSize / 2 ? address - WindowSize / 2 : 0;
        foreach (ulong start in new[] { centred, address })
        {
            int read = _memory.Read(start, _window.AsSpan());
            if (read > 0 && address + (ulong)size <= start + (ulong)read)
            {
                _start = start;
                _length = read;
                return;
            }
        }
        _length = 0;
    }
}
