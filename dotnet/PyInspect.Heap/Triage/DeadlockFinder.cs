namespace PyInspect.Heap;

/// <summary>
/// Deadlocks: following "thread waits for lock, lock is owned by thread" from each waiting
/// thread until a thread repeats; the repeating part is a cycle, named once (from its
/// thread with the lowest managed id) and its locks marked.
/// </summary>
public sealed class DeadlockFinder
{
    private readonly Dictionary<ulong, LockRecord> _locks;
    private readonly Dictionary<long, ThreadSnapshot> _byOsId;

    public DeadlockFinder(Dictionary<ulong, LockRecord> locks, List<ThreadSnapshot> threads)
    {
        _locks = locks;
        _byOsId = new Dictionary<long, ThreadSnapshot>();
        foreach (var thread in threads)
            _byOsId.TryAdd(thread.Record.OsThreadId, thread);  // the first of each OS id, in the threads' order
    }

    public List<DeadlockRecord> Find()
    {
        var found = new List<DeadlockRecord>();
        var named = new HashSet<long>();
        foreach (var start in _byOsId.Values)
        {
            var path = new List<ThreadSnapshot>();
            var current = start;
            while (current != null && !path.Contains(current))
            {
                path.Add(current);
                current = Next(current);
            }
            if (current is null) continue;
            var cycle = path.Skip(path.IndexOf(current)).ToList();
            if (cycle.Any(t => named.Contains(t.Record.OsThreadId))) continue;
            foreach (var thread in cycle) named.Add(thread.Record.OsThreadId);
            found.Add(Describe(Rotate(cycle)));
        }
        return found;
    }

    private ThreadSnapshot? Next(ThreadSnapshot thread)
    {
        if (thread.Record.WaitingFor is not { } waited || !_locks.TryGetValue(Convert.ToUInt64(waited, 16), out var lockRecord)
            || lockRecord.Owner is not { } owner)
            return null;
        return _byOsId.GetValueOrDefault(owner.OsThreadId);
    }

    private static List<ThreadSnapshot> Rotate(List<ThreadSnapshot> cycle)
    {
        int first = cycle.IndexOf(cycle.MinBy(t => t.Record.ManagedThreadId)!);
        return cycle.Skip(first).Concat(cycle.Take(first)).ToList();
    }

    private DeadlockRecord Describe(List<ThreadSnapshot> cycle)
    {
        var record = new DeadlockRecord();
        var sentences = new List<string>();
        for (int i = 0; i < cycle.Count; i++)
        {
            var thread = cycle[i];
            var waitsFor = _locks[Convert.ToUInt64(thread.Record.WaitingFor!, 16)];
            var previous = cycle[(i + cycle.Count - 1) % cycle.Count];
            var holds = _locks[Convert.ToUInt64(previous.Record.WaitingFor!, 16)];
            waitsFor.Deadlock = true;
            record.Cycle.Add(new DeadlockStepRecord
            {
                Thread = thread.Ref(), Holds = holds.Object, HoldsType = holds.Type,
                WaitsFor = waitsFor.Object, WaitsForType = waitsFor.Type,
            });
            sentences.Add($"thread {Label(thread)} holds {holds.Type} {holds.Object} and waits for {waitsFor.Type} {waitsFor.Object}");
        }
        record.Description = "deadlock: " + string.Join("; ", sentences);
        return record;
    }

    private static string Label(ThreadSnapshot thread) =>
        thread.Record.Name is { } name ? $"{thread.Record.ManagedThreadId} '{name}' (OS {thread.Record.OsThreadId})"
            : $"{thread.Record.ManagedThreadId} (OS {thread.Record.OsThreadId})";
}
