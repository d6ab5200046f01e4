// Reading the stopped debuggee's memory (ICorDebugProcess.ReadMemory): for DAP's
// readMemory and for the evaluator's block reads of primitive arrays.
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
}
