using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Work queued to the thread pool that no thread has started yet (SOS's threadpool -wi), read
/// from the heap: the global queues (every ConcurrentQueue field of ThreadPool.s_workQueue, so
/// workItems, highPriorityWorkItems and the assignable queues of whichever runtime it is) and
/// each pool thread's local queue (ThreadPoolWorkQueue.WorkStealingQueueList.s_queues). Only
/// the slots between a queue's head and tail count: a started item's slot is cleared.
/// </summary>
public sealed class WorkQueueReader
{
    public const int MaxItems = 100;
    private readonly ClrRuntime _runtime;
    private readonly List<(ClrObject Item, string Queue)> _found = new();

    public WorkQueueReader(ClrRuntime runtime) => _runtime = runtime;

    public void Read(ThreadPoolRecord record)
    {
        if (Static("System.Threading.ThreadPool", "s_workQueue") is { IsNull: false } workQueue)
            foreach (var field in workQueue.Type!.Fields)
                ReadGlobalField(workQueue, field);
        if (Static("System.Threading.ThreadPoolWorkQueue+WorkStealingQueueList", "s_queues", "_queues") is { IsNull: false } locals)
        {
            var array = locals.AsArray();
            for (int i = 0; i < array.Length; i++)
                if (array.GetObjectValue(i) is { IsNull: false } queue)
                    ReadLocalQueue(queue, $"local {i}");
        }
        record.QueuedWorkItems = _found.Count;
        record.QueuedByType = _found.GroupBy(f => TypeName(f.Item))
            .Select(g => new QueuedTypeRecord
            {
                Type = g.Key, Count = g.Count(),
                Global = g.Count(f => !f.Queue.StartsWith("local", StringComparison.Ordinal)),
                Local = g.Count(f => f.Queue.StartsWith("local", StringComparison.Ordinal)),
            })
            .OrderByDescending(t => t.Count).ThenBy(t => t.Type, StringComparer.Ordinal).ToList();
        record.QueuedItems = _found.Take(MaxItems).Select(f => new QueuedItemRecord
        {
            Address = HeapJson.Hex(f.Item.Address), Type = TypeName(f.Item), Queue = f.Queue, Callback = Callback(f.Item),
        }).ToList();
    }

    private ClrObject? Static(string typeName, params string[] fieldNames)
    {
        var type = _runtime.BaseClassLibrary.GetTypeByName(typeName);
        var domain = _runtime.AppDomains.FirstOrDefault();
        if (type is null || domain is null) return null;
        foreach (var name in fieldNames)
            if (type.GetStaticFieldByName(name) is { } field && field.IsInitialized(domain))
                return field.ReadObject(domain);
        return null;
    }

    private void ReadGlobalField(ClrObject workQueue, ClrInstanceField field)
    {
        string typeName = field.Type?.Name ?? "";
        if (!field.IsObjectReference || !typeName.StartsWith("System.Collections.Concurrent.ConcurrentQueue<", StringComparison.Ordinal))
            return;
        var value = workQueue.ReadObjectField(field.Name!);
        if (value.IsNull) return;
        if (value.IsArray)  // the assignable queues: one ConcurrentQueue per group of processors
        {
            var array = value.AsArray();
            for (int i = 0; i < array.Length; i++)
                if (array.GetObjectValue(i) is { IsNull: false } queue)
                    ReadConcurrentQueue(queue, $"{field.Name}[{i}]");
        }
        else
        {
            ReadConcurrentQueue(value, field.Name!);
        }
    }

    /// <summary>A ConcurrentQueue is a chain of ring segments; each holds its items in
    /// slots [Head, Tail) of _slots (a Tail past Head + length is a frozen segment's offset).</summary>
    private void ReadConcurrentQueue(ClrObject queue, string label)
    {
        var segment = queue.ReadObjectField("_head");
        for (int guard = 0; !segment.IsNull && guard < 10_000; guard++)
        {
            var slots = segment.ReadObjectField("_slots").AsArray();
            var headAndTail = segment.ReadValueTypeField("_headAndTail");
            int head = headAndTail.ReadField<int>("Head"), tail = headAndTail.ReadField<int>("Tail");
            int count = Math.Clamp(tail - head, 0, slots.Length);
            for (int i = 0; i < count; i++)
                if (slots.GetStructValue((head + i) & (slots.Length - 1)).ReadObjectField("Item") is { IsNull: false } item)
                    _found.Add((item, label));
            segment = segment.ReadObjectField("_nextSegment");
        }
    }

    private void ReadLocalQueue(ClrObject queue, string label)
    {
        var items = queue.ReadObjectField("m_array");
        if (items.IsNull) return;
        var array = items.AsArray();
        int head = queue.ReadField<int>("m_headIndex"), tail = queue.ReadField<int>("m_tailIndex");
        int count = Math.Clamp(tail - head, 0, array.Length);
        for (int i = 0; i < count; i++)
            if (array.GetObjectValue((head + i) & (array.Length - 1)) is { IsNull: false } item)
                _found.Add((item, label));
    }

    private static string TypeName(ClrObject item) => item.Type?.Name ?? "?";

    /// <summary>What the item will run: a Task's action, a QueueUserWorkItem callback, a delegate itself.</summary>
    private static string? Callback(ClrObject item)
    {
        if (item.Type is null) return null;
        ClrObject target = item;
        foreach (var name in new[] { "m_action", "_callback" })
            if (item.Type.GetFieldByName(name) is { IsObjectReference: true })
            {
                target = item.ReadObjectField(name);
                break;
            }
        if (target.IsNull || !target.IsDelegate) return null;
        var method = target.AsDelegate().GetDelegateTarget()?.Method;
        return method is null ? null : $"{method.Type?.Name}.{method.Name}";
    }
}
