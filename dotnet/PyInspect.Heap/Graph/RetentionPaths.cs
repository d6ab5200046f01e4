using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Shortest retention paths: one breadth-first search backwards from the object over
/// the snapshot's predecessor lists, so every root found is at its shortest distance and
/// the search always covers the whole snapshot (complete) unless the snapshot itself
/// missed references (unreadable objects), which the answer then says.
/// </summary>
internal sealed class RetentionPaths
{
    private readonly HeapGraph _g;

    public RetentionPaths(HeapGraph graph)
    {
        _g = graph;
    }

    public RetentionPathsRecord Find(ulong address, int maxPaths)
    {
        if (maxPaths < 1)
            throw new HeapTargetException("INVALID_PARAMETER", $"maxPaths must be at least 1, got {maxPaths}");
        int target = _g.Require(address);
        var byObject = _g.Roots.ToLookup(r => r.Object);
        var record = new RetentionPathsRecord
        {
            Address = HeapJson.Hex(address), Type = _g.TypeNames[_g.TypeOf[target]], Complete = true,
        };
        if (_g.IsLive(target)) // a dead object is reached from no root: nothing to search
        {
            using var search = new BackwardSearch(_g, target, byObject, maxPaths);
            foreach (int found in search.RootsFound)
                foreach (var root in byObject[search.Node(found)].OrderBy(KindRank))
                {
                    if (record.Paths.Count == maxPaths)
                        break;
                    record.Paths.Add(new RetentionPathRecord { Root = Root(root), Steps = Steps(search, found) });
                }
        }
        record.Reachable = record.Paths.Count > 0;
        if (!record.Reachable && _g.UnreadableObjects > 0)
        {
            record.Complete = false;
            record.StoppedReason = $"{_g.UnreadableObjects} objects could not be read (no type), so their references are unknown";
        }
        else if (!record.Reachable && _g.SkippedThreads > 0)
        {
            record.Complete = false;
            record.StoppedReason = $"the stacks of {_g.SkippedThreads} threads could not be walked, so their roots are unknown";
        }
        return record;
    }

    /// <summary>The path from the root object at queue position found, one step closer to the target each time.</summary>
    private List<PathStepRecord> Steps(BackwardSearch search, int found)
    {
        var steps = new List<PathStepRecord> { Step(search.Node(found), null) };
        for (int at = found; at != 0;)
        {
            int v = search.Node(at);
            at = search.From(at);
            int w = search.Node(at);
            steps.Add(Step(w, FieldName(v, w)));
        }
        return steps;
    }

    private PathStepRecord Step(int v, string? field) => new()
    {
        Address = HeapJson.Hex(_g.Addresses[v]), Type = _g.TypeNames[_g.TypeOf[v]], Field = field,
    };

    /// <summary>The field (or [index]) of object v that references object w. ClrMD's
    /// reference offsets count from after the MethodTable pointer.</summary>
    private string FieldName(int v, int w)
    {
        ulong target = _g.Addresses[w];
        var obj = _g.Heap.GetObject(_g.Addresses[v]);
        if (_g.PointerSize == 8 && obj.Type is { IsArray: true } arrayType && arrayType.ComponentType is { IsObjectReference: true })
        {
            int found = FindInReferenceArray(obj, arrayType, target);
            if (found >= 0)
                return $"[{found}]";
        }
        else if (obj.Type is { IsArray: true } structArray && structArray.ComponentSize > 0)
        {
            ulong first = structArray.GetArrayElementAddress(obj.Address, 0);
            foreach (var reference in obj.EnumerateReferencesWithFields(carefully: false, considerDependantHandles: false))
                if (reference.Object.Address == target)
                    return $"[{(obj.Address + (ulong)_g.PointerSize + (ulong)reference.Offset - first) / (ulong)structArray.ComponentSize}]";
        }
        foreach (var reference in obj.EnumerateReferencesWithFields(carefully: false, considerDependantHandles: true))
        {
            if (reference.Object.Address != target)
                continue;
            if (reference.IsDependentHandle)
                return "<dependent handle>";
            string name = reference.Field?.Name ?? "?";
            return reference.InnerField is { Field: { } inner } ? $"{name}.{inner.Name}" : name;
        }
        return "?";
    }

    /// <summary>The index of target in an array of references, reading the slots in chunks
    /// (ClrMD's per-reference enumeration is far slower on arrays of millions).</summary>
    private int FindInReferenceArray(ClrObject array, ClrType type, ulong target)
    {
        int length = array.AsArray().Length;
        ulong first = type.GetArrayElementAddress(array.Address, 0);
        var reader = _g.Heap.Runtime.DataTarget.DataReader;
        var chunk = new ulong[8192];
        for (int start = 0; start < length; start += chunk.Length)
        {
            int count = Math.Min(chunk.Length, length - start);
            var bytes = System.Runtime.InteropServices.MemoryMarshal.AsBytes(chunk.AsSpan(0, count));
            if (reader.Read(first + (ulong)start * 8, bytes) != bytes.Length)
                return -1;
            int at = Array.IndexOf(chunk, target, 0, count);
            if (at >= 0)
                return start + at;
        }
        return -1;
    }

    private static int KindRank(GraphRoot root) => root.Kind switch
    {
        "static" => 0, "stack" => 1, "handle" => 2, "pinned" => 3, "finalizer" => 4, _ => 5,
    };

    private static RootRecord Root(GraphRoot root) => new()
    {
        Kind = root.Kind, Name = root.Name, Thread = root.Kind == "stack" ? root.Thread : null,
    };
}
