using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Heap statistics by type, walked in batches so a caller can show progress: each
/// <see cref="Step"/> visits up to N objects; progress is measured in heap bytes.
/// Objects are grouped by MethodTable; names are resolved once per type at the end.
/// </summary>
public sealed class HeapWalk
{
    private readonly IEnumerator<ClrObject> _objects;
    private readonly Dictionary<ClrType, long[]> _byType = new();
    private bool _done;

    internal HeapWalk(ClrHeap heap)
    {
        if (!heap.CanWalkHeap)
            throw new HeapTargetException("HEAP_READ_ERROR", "the GC heap cannot be walked now (a GC is in progress)");
        TotalBytes = heap.Segments.Sum(s => (long)s.ObjectRange.Length);
        _objects = heap.EnumerateObjects().GetEnumerator();
    }

    public long TotalBytes { get; }
    public long WalkedBytes { get; private set; }

    /// <summary>Visit up to maxObjects objects; true once the whole heap was walked.</summary>
    public bool Step(int maxObjects)
    {
        if (_done)
            return true;
        var byType = _byType;
        long walked = 0;
        for (int i = 0; i < maxObjects; i++)
        {
            if (!_objects.MoveNext())
            {
                _done = true;
                WalkedBytes = TotalBytes;
                break;
            }
            var obj = _objects.Current;
            var type = obj.Type;
            if (type is null)
                continue;
            ulong size = obj.Size;
            if (!byType.TryGetValue(type, out var slot))
                byType[type] = slot = new long[2];
            slot[0]++;
            slot[1] += (long)size;
            walked += (long)size;
        }
        if (!_done)
            WalkedBytes = Math.Min(TotalBytes, WalkedBytes + walked);
        return _done;
    }

    /// <summary>The statistics so far as JSON [{type, count, totalSize}], largest total first.</summary>
    public string ResultJson()
    {
        var merged = new Dictionary<string, TypeStatRecord>();
        foreach (var (type, slot) in _byType)
        {
            string name = type.Name ?? $"<unknown type {HeapJson.Hex(type.MethodTable)}>";
            if (!merged.TryGetValue(name, out var record))
                merged[name] = record = new TypeStatRecord { Type = name };
            record.Count += slot[0];
            record.TotalSize += slot[1];
        }
        var ordered = merged.Values.OrderByDescending(r => r.TotalSize).ThenBy(r => r.Type, StringComparer.Ordinal).ToList();
        return HeapJson.Serialize(ordered);
    }
}
