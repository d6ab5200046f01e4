using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Locks held and waited for (syncblk, with thin locks and System.Threading.Lock too), and
/// the deadlocks among them. Owners come from the runtime: a sync block's holding thread, a
/// thin lock in the object header, a Lock's `_owningThreadId`. Which lock a blocked thread
/// waits for is read off its stack: the object its blocking frames (and the user frame that
/// called them) hold that is a lock of the kind it is blocked in, owned by another thread
/// when one is. Candidates are the sync blocks' objects, every stack's objects, and every
/// object whose header holds a thin lock (the caller's heap walk reads the headers: a thin lock
/// taken in a method that has returned sits on no stack; SOS's syncblk shows no thin locks at all).
/// </summary>
public sealed class LockReader
{
    private readonly ClrRuntime _runtime;
    private readonly List<ThreadSnapshot> _threads;
    private readonly Dictionary<ulong, LockRecord> _locks = new();
    private readonly HashSet<ulong> _considered = new();

    public LockReader(ClrRuntime runtime, List<ThreadSnapshot> threads)
    {
        _runtime = runtime;
        _threads = threads;
    }

    /// <summary>Every lock held or waited for. thinLocked: the heap's objects whose header holds
    /// a thin lock, in heap order (<c>HeapSurvey</c>).</summary>
    public LocksRecord Read(IEnumerable<ClrObject> thinLocked)
    {
        foreach (var block in _runtime.Heap.EnumerateSyncBlocks())
            if (block.IsMonitorHeld || block.WaitingThreadCount > 0)
                Consider(_runtime.Heap.GetObject(block.Object));
        foreach (var obj in thinLocked)
            Consider(obj);
        ConsiderStackObjects();
        foreach (var thread in _threads)
            AddWaiter(thread);
        var result = new LocksRecord { Deadlocks = new DeadlockFinder(_locks, _threads).Find() };
        result.Locks = InAnswerOrder(_locks.Values.Where(l => l.Owner != null || l.Waiters.Count > 0).ToList());
        return result;
    }

    /// <summary>Deadlocked locks first, then the most waited for; ties keep the order they were
    /// found in (a stable sort, as OrderBy's: LINQ's sorter over a bool key was JIT-compiled in
    /// every reader).</summary>
    private static List<LockRecord> InAnswerOrder(List<LockRecord> locks)
    {
        int[] order = new int[locks.Count];
        for (int i = 0; i < order.Length; i++)
            order[i] = i;
        Array.Sort(order, (a, b) =>
        {
            LockRecord x = locks[a], y = locks[b];
            if (x.Deadlock != y.Deadlock) return x.Deadlock ? -1 : 1;
            if (x.Waiters.Count != y.Waiters.Count) return y.Waiters.Count - x.Waiters.Count;
            return a - b;
        });
        var sorted = new List<LockRecord>(order.Length);
        foreach (int index in order)
            sorted.Add(locks[index]);
        return sorted;
    }

    /// <summary>Only what each blocked thread waits for (its BlockedIn and WaitingFor), as
    /// <see cref="Read"/> sets them: the lock waited for is always one of the objects of the
    /// thread's blocking frames, and a lock's record depends on its object alone, so only those
    /// objects are looked at (as the waiters are found), not the sync blocks, the heap's thin
    /// locks or the other stack objects, which only add locks no thread is found waiting for.</summary>
    public void ReadWaits()
    {
        foreach (var thread in _threads)
            AddWaiter(thread);
    }

    /// <summary>The lock record of obj (read now if it was not), or null when it is no lock.</summary>
    private LockRecord? Candidate(ClrObject obj)
    {
        Consider(obj);
        return _locks.GetValueOrDefault(obj.Address);
    }

    private void ConsiderStackObjects()
    {
        foreach (var thread in _threads)
            foreach (var objects in thread.FrameObjects)
                foreach (var obj in objects)
                    Consider(obj);
    }

    private void Consider(ClrObject obj)
    {
        if (!_considered.Add(obj.Address) || !obj.IsValid || obj.Type is null) return;
        string type = obj.Type.Name ?? "?";
        LockRecord? record = type switch
        {
            "System.Threading.Lock" => NewLock(obj),
            "System.Threading.SemaphoreSlim" => new LockRecord { Kind = "semaphore" },
            _ => Monitor(obj),
        };
        if (record is null) return;
        record.Object = HeapJson.Hex(obj.Address);
        record.Type = type;
        _locks[obj.Address] = record;
    }

    private LockRecord? Monitor(ClrObject obj)
    {
        if (obj.SyncBlock is { } block && (block.IsMonitorHeld || block.WaitingThreadCount > 0))
        {
            var owner = block.IsMonitorHeld ? _threads.FirstOrDefault(t => t.Thread.Address == block.HoldingThreadAddress) : null;
            return new LockRecord
            {
                ThinLock = false, Owner = owner?.Ref(), Recursion = block.RecursionCount,
                SyncBlockWaiters = block.WaitingThreadCount,
            };
        }
        if (obj.GetThinLock() is { Thread: { } thread } thin)
        {
            var owner = _threads.FirstOrDefault(t => t.Thread.Address == thread.Address);
            return new LockRecord { ThinLock = true, Owner = owner?.Ref(), Recursion = thin.Recursion };
        }
        return null;
    }

    private LockRecord? NewLock(ClrObject obj)
    {
        if (!obj.TryReadField("_owningThreadId", out uint owningId)) return new LockRecord { Kind = "lock" };
        // The owner's id is the OS thread id on CoreCLR (.NET 10 measured), a managed id where
        // the runtime chose that: the OS id is matched first, the managed id after.
        var owner = owningId == 0 ? null
            : _threads.FirstOrDefault(t => t.Record.OsThreadId == owningId)
              ?? _threads.FirstOrDefault(t => t.Record.ManagedThreadId == (int)owningId);
        obj.TryReadField("_recursionCount", out uint recursion);
        return new LockRecord { Kind = "lock", Owner = owner?.Ref(), Recursion = owningId == 0 ? 0 : (int)recursion + 1 };
    }

    /// <summary>The lock a blocked thread waits for: the nearest-to-the-leaf object of its
    /// blocking frames (and their caller) that is a lock of its kind, preferring one another thread owns.</summary>
    private void AddWaiter(ThreadSnapshot thread)
    {
        if (BlockingCall.Of(thread.Record.Frames) is not { } blocked)
        {
            if (EnteringInNativeCode(thread) is { } entered)
            {
                thread.Record.BlockedIn = "monitor";
                Wait(thread, entered);
            }
            return;
        }
        string kind = blocked.Kind;  // monitor-wait released its lock: it waits for a pulse, not an owner
        if (kind is not ("monitor" or "lock" or "semaphore")) return;
        LockRecord? best = null;
        int last = Math.Min(blocked.Frame + 1, thread.FrameObjects.Count - 1);
        for (int i = 0; i <= last && best?.Owner is null; i++)
        {
            foreach (var obj in thread.FrameObjects[i])
            {
                if (Candidate(obj) is not { } candidate || candidate.Kind != kind) continue;
                bool ownedByOther = candidate.Owner != null && candidate.Owner.OsThreadId != thread.Record.OsThreadId;
                bool ownedBySelf = candidate.Owner?.OsThreadId == thread.Record.OsThreadId;
                if (ownedByOther) { best = candidate; break; }
                if (!ownedBySelf && best is null) best = candidate;
            }
        }
        if (best is not null)
            Wait(thread, best);
    }

    private static void Wait(ThreadSnapshot thread, LockRecord waited)
    {
        waited.Waiters.Add(thread.Ref());
        thread.Record.WaitingFor = waited.Object;
    }

    /// <summary>.NET 8 and 9 enter a contended monitor in native code: no managed frame says so,
    /// but the top frame is the runtime's HelperMethodFrame protecting the object being entered.
    /// A monitor another thread owns among its objects is the one waited for.</summary>
    private LockRecord? EnteringInNativeCode(ThreadSnapshot thread)
    {
        var frames = thread.Record.Frames;
        if (frames.Count == 0 || frames[0].Kind != "runtime" || !frames[0].Method.StartsWith("HelperMethodFrame", StringComparison.Ordinal))
            return null;
        foreach (var obj in thread.FrameObjects[0])
            if (Candidate(obj) is { } candidate && candidate.Kind == "monitor"
                && candidate.Owner is { } owner && owner.OsThreadId != thread.Record.OsThreadId)
                return candidate;
        return null;
    }
}
