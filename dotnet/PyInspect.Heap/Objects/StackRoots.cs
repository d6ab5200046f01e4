using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Whether a thread's stack roots can be enumerated. The DAC's GC-info walk of a thread
/// that is dispatching an exception (its current exception set: the thread of an unhandled
/// exception in a crash dump) crashed the process with a segfault (.NET 10, measured on
/// HangShape's crash dump), which no catch can stop; its frames are still read, its roots not.
/// </summary>
public static class StackRoots
{
    public const string Unsafe = "the thread is dispatching an exception: reading its stack roots crashes the DAC";

    public static bool AreSafe(ClrThread thread) => thread.CurrentException is null;
}
