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
        var next = Search(target, out var rootObjects);
        var record = new RetentionPathsRecord
        {
            Address = HeapJson.Hex(address), Type = _g.TypeNames[_g.TypeOf[target]],
            Reachable = rootObjects.Count > 0, Complete = true,
        };
        var byObject = _g.Roots.ToLookup(r => r.Object);
        foreach (int r in rootObjects)
            foreach (var root in byObject[r].OrderBy(KindRank))
            {
                if (record.Paths.Count == maxPaths)
                    break;
                record.Paths.Add(new RetentionPathRecord { Root = Root(root), Steps = Steps(r, next) });
            }
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

    /// <summary>Backward BFS; next[v] is the node one step closer to target. Root objects in distance order.</summary>
    private int[] Search(int target, out List<int> rootObjects)
    {
        var (offsets, sources) = _g.Predecessors();
        int n = _g.ObjectCount;
        var next = new int[n];
        Array.Fill(next, -1);
        var isRoot = new HashSet<int>(_g.Roots.Select(r => r.Object));
        rootObjects = new List<int>();
        var queue = new int[n];
        int head = 0, tail = 0;
        queue[tail++] = target;
        next[target] = target;
        while (head < tail)
        {
            int v = queue[head++];
            if (isRoot.Contains(v))
                rootObjects.Add(v);
            for (int e = offsets[v]; e < offsets[v + 1]; e++)
            {
                int u = sources[e];
                if (u >= n || next[u] >= 0)
                    continue; // the super-root, or already seen
                next[u] = v;
                queue[tail++] = u;
            }
        }
        return next;
    }

    private List<PathStepRecord> Steps(int from, int[] next)
    {
        var steps = new List<PathStepRecord> { Step(from, null) };
        int v = from;
        while (next[v] != v)
        {
            int w = next[v];
            steps.Add(Step(w, FieldName(v, w)));
            v = w;
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
