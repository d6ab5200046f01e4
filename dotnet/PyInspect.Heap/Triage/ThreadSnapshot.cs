using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>One thread as read once: ClrMD's thread, its record, and the objects each of its
/// frames holds (by frame index), which the lock reader searches for the lock waited for.</summary>
public sealed class ThreadSnapshot
{
    public ThreadSnapshot(ClrThread thread, ThreadRecord record, List<List<ClrObject>> frameObjects)
    {
        Thread = thread;
        Record = record;
        FrameObjects = frameObjects;
    }

    public ClrThread Thread { get; }
    public ThreadRecord Record { get; }
    public List<List<ClrObject>> FrameObjects { get; }

    public ThreadRefRecord Ref() => new()
    {
        OsThreadId = Record.OsThreadId, ManagedThreadId = Record.ManagedThreadId, Name = Record.Name,
    };
}
