using System.Text.RegularExpressions;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Async state machines on the heap (dumpasync) as chains. Each box (the Task that runs a
/// state machine) awaits the task held in its state machine's current awaiter field
/// (`&lt;&gt;u__N`) and is awaited by the box its own continuation names. A chain runs from
/// the innermost box (awaiting a task that is not a box) to the root awaiter. The state is the
/// index of the await the method is suspended at; the PDB's async stepping information gives
/// that await's line. Stuck chains come first.
/// </summary>
public sealed partial class AsyncReader
{
    private const int RanToCompletion = 0x1000000, Faulted = 0x200000, Canceled = 0x400000;
    private readonly ClrHeap _heap;
    private readonly SourceLines _lines;
    private readonly Dictionary<ulong, AsyncFrameRecord> _boxes = new();
    private readonly Dictionary<ulong, ulong> _awaitedBy = new();

    public AsyncReader(ClrHeap heap, SourceLines lines)
    {
        _heap = heap;
        _lines = lines;
    }

    /// <summary>boxes: the heap's objects whose type <see cref="IsBoxType"/>, in heap order.</summary>
    public AsyncChainsRecord Read(int limit, IEnumerable<ClrObject> boxes)
    {
        foreach (var obj in boxes)
            ReadBox(obj);
        var awaitedBoxes = _boxes.Values.Where(b => b.Awaits != null).Select(b => Convert.ToUInt64(b.Awaits, 16)).ToHashSet();
        var chains = new List<AsyncChainRecord>();
        foreach (var (address, box) in _boxes)
        {
            bool innermost = box.Awaits is null || !_boxes.ContainsKey(Convert.ToUInt64(box.Awaits, 16));
            if (!innermost || box.State == -2) continue;
            chains.Add(Chain(address, box));
        }
        var ordered = chains.OrderByDescending(c => c.Stuck).ThenByDescending(c => c.Chain.Count).ToList();
        return new AsyncChainsRecord
        {
            StateMachines = _boxes.Count, Total = ordered.Count, Truncated = ordered.Count > limit,
            Chains = ordered.Take(limit).ToList(),
        };
    }

    /// <summary>Whether objects of this type are boxes running a state machine.</summary>
    public static bool IsBoxType(ClrType type) => type.Name is { } name && IsBox(name);

    private static bool IsBox(string typeName) =>
        typeName.Contains("+AsyncStateMachineBox<", StringComparison.Ordinal)
        || typeName.Contains("+StateMachineBox<", StringComparison.Ordinal);

    private AsyncChainRecord Chain(ulong innermost, AsyncFrameRecord box)
    {
        var chain = new AsyncChainRecord();
        var seen = new HashSet<ulong>();
        ulong current = innermost;
        while (_boxes.TryGetValue(current, out var frame) && seen.Add(current))
        {
            chain.Chain.Add(frame);
            if (!_awaitedBy.TryGetValue(current, out current)) break;
        }
        if (box.Awaits != null && box.AwaitsStatus is "waiting" && IsPromise(Convert.ToUInt64(box.Awaits, 16)))
        {
            chain.Stuck = true;
            chain.Reason = $"the innermost method awaits {box.AwaitsType} {box.Awaits}, a task with no code of its own "
                + "to run (a TaskCompletionSource's or similar) that is not completed: only something that holds its "
                + "source can complete it";
        }
        return chain;
    }

    private bool IsPromise(ulong task)
    {
        var obj = _heap.GetObject(task);
        return obj.IsValid && obj.Type?.GetFieldByName("m_action") != null && obj.ReadObjectField("m_action").IsNull;
    }

    private void ReadBox(ClrObject box)
    {
        var machineField = box.Type!.GetFieldByName("StateMachine");
        if (machineField?.Type is not { } machineType) return;
        var machine = StateMachine.Of(box, machineField);
        var record = new AsyncFrameRecord
        {
            Address = HeapJson.Hex(box.Address),
            StateMachineType = machine.Type?.Name ?? machineType.Name ?? "?",
            State = machine.State,
            Method = MethodOf(machine.Type?.Name ?? machineType.Name ?? "?"),
        };
        if (machine.AwaitedTask is { IsNull: false, IsValid: true } awaited)
        {
            record.Awaits = HeapJson.Hex(awaited.Address);
            record.AwaitsType = awaited.Type?.Name;
            record.AwaitsStatus = Status(awaited);
        }
        if (box.TryReadField("m_stateFlags", out int flags) && (flags & (RanToCompletion | Faulted | Canceled)) != 0)
            record.State = -2;
        if (machine.Type is { } type && type.Methods.FirstOrDefault(m => m.Name == "MoveNext") is { } moveNext
            && _lines.AwaitLine(type.Module?.Name, moveNext.MetadataToken, record.State) is { } where)
            (record.File, record.Line) = where;
        _boxes[box.Address] = record;
        foreach (ulong awaiter in Continuations(box))
            _awaitedBy[box.Address] = awaiter;
    }

    /// <summary>The boxes a task's continuation object names: a box, a delegate or an await
    /// continuation whose target is a box, or a list of those.</summary>
    private IEnumerable<ulong> Continuations(ClrObject task)
    {
        if (!task.TryReadObjectField("m_continuationObject", out var continuation) || continuation.IsNull) yield break;
        foreach (var item in Items(continuation))
        {
            var candidate = item;
            if (candidate.Type?.Name is { } n && n.Contains("TaskContinuation", StringComparison.Ordinal)
                && candidate.TryReadObjectField("m_action", out var action))
                candidate = action;
            if (candidate.IsDelegate && candidate.TryReadObjectField("_target", out var target))
                candidate = target;
            if (candidate.Type?.Name is { } name && IsBox(name))
                yield return candidate.Address;
        }
    }

    private IEnumerable<ClrObject> Items(ClrObject continuation)
    {
        if (continuation.Type?.Name?.StartsWith("System.Collections.Generic.List<", StringComparison.Ordinal) != true)
        {
            yield return continuation;
            yield break;
        }
        if (!continuation.TryReadObjectField("_items", out var items) || items.IsNull || !continuation.TryReadField("_size", out int size))
            yield break;
        var array = items.AsArray();
        for (int i = 0; i < Math.Min(size, array.Length); i++)
            if (array.GetObjectValue(i) is { IsNull: false } item)
                yield return item;
    }

    private static string Status(ClrObject task)
    {
        if (!task.TryReadField("m_stateFlags", out int flags)) return "unknown";
        if ((flags & RanToCompletion) != 0) return "completed";
        if ((flags & Faulted) != 0) return "faulted";
        if ((flags & Canceled) != 0) return "canceled";
        return "waiting";
    }

    /// <summary>`Ns.Type+&lt;Method&gt;d__3` as `Ns.Type.Method`.</summary>
    private static string MethodOf(string stateMachineType)
    {
        var m = MachineName().Match(stateMachineType);
        return m.Success ? $"{m.Groups["outer"].Value.Replace('+', '.')}.{m.Groups["method"].Value}" : stateMachineType;
    }

    [GeneratedRegex(@"^(?<outer>.+)\+<(?<method>[^>]+)>d__\d+(?:<.*>)?$")]
    private static partial Regex MachineName();
}
