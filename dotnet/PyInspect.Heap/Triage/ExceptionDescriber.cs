using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>An exception object as an <see cref="ExceptionRecord"/>, inner exceptions nested (at most 8 deep).</summary>
public sealed class ExceptionDescriber
{
    private const int MaxInnerDepth = 8;
    private readonly FrameDescriber _frames;
    private readonly Dictionary<int, string> _names;

    public ExceptionDescriber(FrameDescriber frames, Dictionary<int, string> names)
    {
        _frames = frames;
        _names = names;
    }

    public ExceptionRecord Describe(ClrException exception, ClrThread? currentOf, int depth = 0)
    {
        var record = new ExceptionRecord
        {
            Address = HeapJson.Hex(exception.Address),
            Type = exception.Type?.Name ?? "?",
            Message = SafeMessage(exception),
            HResult = exception.HResult,
        };
        if (currentOf != null)
        {
            record.Thread = currentOf.OSThreadId;
            record.ThreadName = _names.GetValueOrDefault(currentOf.ManagedThreadId);
        }
        foreach (var frame in SafeStack(exception))
            record.Stack.Add(_frames.Describe(frame, atReturnAddress: record.Stack.Count > 0));
        if (depth < MaxInnerDepth && exception.Inner is { } inner)
            record.Inner = Describe(inner, null, depth + 1);
        return record;
    }

    private static string? SafeMessage(ClrException exception)
    {
        try
        {
            return exception.Message;
        }
        catch (Exception exc) when (exc is InvalidOperationException or ArgumentException or IOException)
        {
            return null;
        }
    }

    private static IEnumerable<ClrStackFrame> SafeStack(ClrException exception)
    {
        try
        {
            return exception.StackTrace.ToArray();
        }
        catch (Exception exc) when (exc is InvalidOperationException or ArgumentException or IOException)
        {
            return [];
        }
    }
}
