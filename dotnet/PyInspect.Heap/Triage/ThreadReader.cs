using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Every managed thread with its stack (clrstack -all): ids, the name from its Thread
/// object, state flags, what it is blocked in, its current exception, and per frame the
/// objects its slots hold. Threads that never started or have died are listed without frames.
/// </summary>
public sealed class ThreadReader
{
    private readonly ClrRuntime _runtime;
    private readonly FrameDescriber _frames;
    private readonly ExceptionDescriber _exceptions;
    private readonly Dictionary<int, string> _names;
    private readonly ReadSteps _steps;
    private readonly bool _forLocks;

    /// <param name="lines">files and lines of the frames; null for stacks read only for the lock
    /// reader (<see cref="FrameDescriber"/>: frames named only), whose answer lists no frames, no
    /// current exception and no state: those are left out</param>
    public ThreadReader(ClrRuntime runtime, SourceLines? lines, ReadSteps steps)
    {
        _forLocks = lines is null;
        _runtime = runtime;
        _steps = steps;
        _frames = new FrameDescriber(lines);
        _names = ThreadNames.Read(runtime);
        _exceptions = new ExceptionDescriber(_frames, _names);
    }

    /// <summary>OS ids of the threads whose stacks could not be read whole (read so far).</summary>
    public List<uint> Unreadable { get; } = new();

    public string? NameOf(int managedThreadId) => _names.GetValueOrDefault(managedThreadId);

    public List<ThreadSnapshot> Read(int maxFrames)
    {
        var threads = new List<ThreadSnapshot>();
        foreach (var thread in _runtime.Threads)
            threads.Add(ReadOne(thread, maxFrames));
        return threads;
    }

    private ThreadSnapshot ReadOne(ClrThread thread, int maxFrames)
    {
        var record = new ThreadRecord
        {
            OsThreadId = thread.OSThreadId,
            ManagedThreadId = thread.ManagedThreadId,
            Name = _names.GetValueOrDefault(thread.ManagedThreadId),
            State = _forLocks ? [] : StateNames(thread),
            IsBackground = (thread.State & ClrThreadState.TS_Background) != 0,
            IsAlive = thread.IsAlive,
            IsFinalizer = thread.IsFinalizer,
            IsGc = thread.IsGc,
            LockCount = (int)thread.LockCount,
        };
        var frameObjects = new List<List<ClrObject>>();
        if (thread.IsAlive && thread.OSThreadId != 0 && !_steps.Enter($"stack of OS thread {thread.OSThreadId}"))
            Unreadable.Add(thread.OSThreadId);
        else if (thread.IsAlive && thread.OSThreadId != 0)
        {
            var stackPointers = new Dictionary<ulong, int>();
            try
            {
                foreach (var frame in thread.EnumerateStackTrace(includeContext: false).Take(maxFrames))
                {
                    stackPointers.TryAdd(frame.StackPointer, record.Frames.Count);
                    record.Frames.Add(_frames.Describe(frame, atReturnAddress: record.Frames.Count > 0));
                    frameObjects.Add(new List<ClrObject>());
                }
            }
            catch (Exception exc) when (exc is not OutOfMemoryException)
            {
                // a damaged stack: the frames read so far are kept, the answer says the rest is missing
                Unreadable.Add(thread.OSThreadId);
                return new ThreadSnapshot(thread, record, frameObjects);
            }
            if (StackRoots.AreSafe(thread))
                AddStackObjects(thread, record, stackPointers, frameObjects);
            else
                record.ObjectsUnread = StackRoots.Unsafe;
            if (BlockingCall.Of(record.Frames) is { } blocked)
                record.BlockedIn = blocked.Kind;
        }
        if (!_forLocks && thread.CurrentException is { } exception)
            record.Exception = _exceptions.Describe(exception, thread);
        return new ThreadSnapshot(thread, record, frameObjects);
    }

    private static void AddStackObjects(ClrThread thread, ThreadRecord record, Dictionary<ulong, int> stackPointers,
        List<List<ClrObject>> frameObjects)
    {
        foreach (var root in thread.EnumerateStackRoots())
        {
            if (root.StackFrame is not { } frame || !stackPointers.TryGetValue(frame.StackPointer, out int index)) continue;
            var obj = root.Object;
            if (!obj.IsValid || frameObjects[index].Any(o => o.Address == obj.Address)) continue;
            frameObjects[index].Add(obj);
            var objects = record.Frames[index].Objects ??= new List<StackObjectRecord>();
            objects.Add(new StackObjectRecord
            {
                Address = HeapJson.Hex(obj.Address), Type = obj.Type?.Name ?? "?",
                IsInterior = root.IsInterior, IsPinned = root.IsPinned,
            });
        }
    }

    private static List<string> StateNames(ClrThread thread)
    {
        var names = new List<string>();
        foreach (ClrThreadState flag in Enum.GetValues<ClrThreadState>())
            if (flag != 0 && (thread.State & flag) == flag)
                names.Add(flag.ToString().Replace("TS_", "").ToLowerInvariant());
        if (!thread.IsAlive) names.Add("dead");
        if (thread.IsGc) names.Add("gc");
        return names.Distinct().ToList();
    }
}
