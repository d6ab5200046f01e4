using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Every exception object on the heap (found by the caller's walk), with the threads' current
/// exceptions first: in a crash dump the thread the unhandled exception is running on holds it
/// as its current one, so the exception that killed the process leads. Counts by type cover
/// all; records stop at the limit.
/// </summary>
public sealed class ExceptionReader
{
    private readonly ClrRuntime _runtime;
    private readonly ExceptionDescriber _describer;

    public ExceptionReader(ClrRuntime runtime, ExceptionDescriber describer)
    {
        _runtime = runtime;
        _describer = describer;
    }

    /// <summary>heapExceptions: the heap's objects whose type is an exception, in heap order.</summary>
    public ExceptionsRecord Read(int limit, IEnumerable<ClrObject> heapExceptions)
    {
        var result = new ExceptionsRecord();
        var seen = new HashSet<ulong>();
        foreach (var thread in _runtime.Threads)
        {
            if (thread.CurrentException is not { } current || !seen.Add(current.Address)) continue;
            if (result.Exceptions.Count < limit)
                result.Exceptions.Add(_describer.Describe(current, thread));
        }
        var others = new List<ClrObject>();
        var counts = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var obj in heapExceptions)
        {
            if (obj.Type is not { } type) continue;
            result.Total++;
            string name = type.Name ?? "?";
            counts[name] = counts.GetValueOrDefault(name) + 1;
            if (seen.Add(obj.Address))
                others.Add(obj);
        }
        // Thrown ones (with a stack trace) before those never thrown, such as the runtime's
        // preallocated OutOfMemory, StackOverflow and ExecutionEngine exceptions.
        foreach (var obj in others.OrderBy(o => !Thrown(o)))
        {
            if (result.Exceptions.Count < limit)
                result.Exceptions.Add(_describer.Describe(obj.AsException()!, null));
            else
                result.Truncated = true;
        }
        result.ByType = counts.OrderByDescending(c => c.Value).ThenBy(c => c.Key, StringComparer.Ordinal)
            .Select(c => new TypeCountRecord { TypeName = c.Key, Count = c.Value }).ToList();
        return result;
    }

    private static bool Thrown(ClrObject exception) =>
        exception.TryReadObjectField("_stackTrace", out var trace) && !trace.IsNull;
}
