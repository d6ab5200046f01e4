// What an exception object says about itself: its type, message, the stack it was thrown
// through, and its inner exceptions, read from the object's fields (no code runs).
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public sealed record ExceptionDetails(string TypeName, string Message, string? StackTrace, ExceptionDetails? Inner)
{
    private const int MaxInnerDepth = 8;

    public static ExceptionDetails Read(ICorDebugValue exception, string? stackTrace = null, int depth = 0)
    {
        ICorDebugValue? obj = ValuePath.Dereference(exception);
        string type = obj is ICorDebugValue2 typed && typed.GetExactType(out var exact) >= 0
            ? TypeNames.Format(exact) : "System.Exception";
        string message = obj is null ? "" : StringField(obj, "_message") ?? $"Exception of type '{type}' was thrown.";
        ExceptionDetails? inner = null;
        if (obj is not null && depth < MaxInnerDepth && ValuePath.Member(obj, "_innerException") is { } innerValue
            && ValuePath.Dereference(innerValue) is not null)
            inner = Read(innerValue, null, depth + 1);
        return new ExceptionDetails(type, message, stackTrace ?? StringField(obj, "_stackTraceString"), inner);
    }

    private static string? StringField(ICorDebugValue? obj, string field)
    {
        if (obj is null || ValuePath.Member(obj, field) is not { } value) return null;
        return ValuePath.Dereference(value) is ICorDebugStringValue text ? ValueText.ReadString(text) : null;
    }

    /// <summary>DAP's ExceptionDetails object.</summary>
    public JsonObject ToJson()
    {
        var json = new JsonObject
        {
            ["message"] = Message,
            ["typeName"] = TypeName[(TypeName.LastIndexOf('.') + 1)..],
            ["fullTypeName"] = TypeName,
            ["evaluateName"] = "$exception",
        };
        if (StackTrace is not null) json["stackTrace"] = StackTrace;
        if (Inner is not null) json["innerException"] = new JsonArray(Inner.ToJson());
        return json;
    }

    /// <summary>"   at Namespace.Type.Method() in /path/File.cs:line 12", one line per frame, as .NET prints.</summary>
    public static string FormatFrames(IEnumerable<FrameInfo> frames) => string.Join("\n", frames.Select(f =>
        f.Source is { } source ? $"   at {f.Name} in {source.SourcePath}:line {source.Line}" : $"   at {f.Name}"));
}
