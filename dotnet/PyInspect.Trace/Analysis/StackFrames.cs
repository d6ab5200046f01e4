using Microsoft.Diagnostics.Tracing.Etlx;

namespace PyInspect.Trace.Analysis;

/// <summary>An event's managed call stack as method names, leaf first, and the first frame
/// in user code (not System.*, Microsoft.*, Internal.*): the method that allocated.</summary>
public static class StackFrames
{
    public const int MaxFrames = 16;

    private static readonly string[] FrameworkPrefixes = ["System.", "Microsoft.", "Internal.", "Interop", "<Module>", "ILStubClass"];

    public static IReadOnlyList<string> Managed(TraceCallStack? stack)
    {
        var frames = new List<string>();
        for (var frame = stack; frame is not null && frames.Count < MaxFrames; frame = frame.Caller)
        {
            string name = frame.CodeAddress.FullMethodName;
            if (!string.IsNullOrEmpty(name) && name != "?") frames.Add(name);
        }
        return frames;
    }

    public static string? FirstUserFrame(IReadOnlyList<string> frames) =>
        frames.FirstOrDefault(IsUserCode);

    public static bool IsUserCode(string method) =>
        !FrameworkPrefixes.Any(p => method.StartsWith(p, StringComparison.Ordinal));
}
