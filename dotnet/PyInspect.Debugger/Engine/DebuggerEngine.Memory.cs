// Reading the stopped debuggee's memory (ICorDebugProcess.ReadMemory): for DAP's
// readMemory, for the evaluator's block reads of primitive arrays and for breakpoint
// conditions read straight from a hit thread's stack (its registers by GetThreadContext), and
// an object's ICorDebug value from its address (a condition's getter receiver, no frame).
using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace PyInspect.Debugger.Engine;

public sealed partial class DebuggerEngine
{
    private const int PageSize = 4096;

    /// <summary>Reads into `buffer` from `address`; answers how many leading bytes could be
    /// read (a read that crosses into an unmapped page stops at that page).</summary>
    public unsafe int ReadMemory(ulong address, Span<byte> buffer)
    {
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            if (!IsSynchronized) throw new EngineException("the process must be stopped to read its memory");
            fixed (byte* start = buffer)
            {
                if (process.ReadMemory(address, (uint)buffer.Length, start, out nuint read) >= 0 && (int)read == buffer.Length)
                    return buffer.Length;
                // Page by page, to find how far the readable part goes.
                int done = 0;
                while (done < buffer.Length)
                {
                    ulong at = address + (ulong)done;
                    int chunk = (int)Math.Min((ulong)(buffer.Length - done), PageSize - at % PageSize);
                    if (process.ReadMemory(at, (uint)chunk, start + done, out nuint got) < 0 || (int)got != chunk) break;
                    done += chunk;
                }
                return done;
            }
        }
    }

    /// <summary>The managed object at an address as an ICorDebug value (ICorDebugProcess5.GetObject):
    /// no frame or stack walk needed. Null when the process is not stopped or the address is no object.</summary>
    public ICorDebugObjectValue? ObjectAt(ulong address)
    {
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            if (!IsSynchronized || process is not ICorDebugProcess5 heap) return null;
            return heap.GetObject(address, out var value) >= 0 ? value : null;
        }
    }

    // The x64 CONTEXT (DT_CONTEXT) ICorDebug hands back: its size and where its fields sit.
    private const int AmdContextSize = 1232, ContextFlagsAt = 0x30, RspAt = 0x98, RipAt = 0xF8;
    private const uint ContextAmd64Control = 0x100001;

    /// <summary>A stopped thread's stack and instruction pointers, from the context the
    /// runtime saved when it stopped (no stack walk). False off x64 or when it is unavailable.</summary>
    public unsafe bool ReadStackAndIp(uint threadId, out ulong sp, out ulong ip)
    {
        sp = ip = 0;
        if (RuntimeInformation.ProcessArchitecture != Architecture.X64) return false;
        Span<byte> context = stackalloc byte[AmdContextSize];
        context.Clear();
        BinaryPrimitives.WriteUInt32LittleEndian(context[ContextFlagsAt..], ContextAmd64Control);
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            fixed (byte* start = context)
                if (process.GetThreadContext(threadId, AmdContextSize, start) < 0) return false;
        }
        sp = BinaryPrimitives.ReadUInt64LittleEndian(context[RspAt..]);
        ip = BinaryPrimitives.ReadUInt64LittleEndian(context[RipAt..]);
        return sp != 0 && ip != 0;
    }
}
