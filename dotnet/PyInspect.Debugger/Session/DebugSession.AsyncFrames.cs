// stackTrace with async logical callers: after the outermost user frame of a resumed async
// method, a label frame "[Async] awaiting callers" and one frame per awaiting method, at
// its await (AsyncCallStack), before the runtime's thread-pool frames. Those frames have no
// physical frame behind them: their scopes are empty.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Frames;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    /// <summary>What a stackTrace id of a logical frame stands for (null Caller: the label).</summary>
    private sealed record AsyncCallerFrame(AsyncCaller? Caller);

    /// <summary>The physical frames with the async callers inserted after the outermost user frame.</summary>
    private static List<object> WithAsyncCallers(List<FrameInfo> frames, ModuleCatalog modules)
    {
        var all = new List<object>(frames);
        List<AsyncCaller> callers = AsyncCallStack.Callers(frames, modules);
        if (callers.Count == 0) return all;
        int after = frames.FindLastIndex(f => f.Source is not null) + 1;
        all.InsertRange(after, [new AsyncCallerFrame(null), .. callers.Select(c => new AsyncCallerFrame(c))]);
        return all;
    }

    private JsonNode StackFrameJson(object frame) =>
        frame is AsyncCallerFrame logical ? AsyncFrameJson(logical) : FrameJson((FrameInfo)frame);

    private JsonObject AsyncFrameJson(AsyncCallerFrame frame)
    {
        var json = new JsonObject
        {
            ["id"] = _debuggee.Handles.AddVariables(frame),
            ["name"] = frame.Caller?.Name ?? "[Async] awaiting callers",
            ["line"] = frame.Caller?.Source?.Line ?? 0,
            ["column"] = frame.Caller?.Source?.Column ?? 0,
        };
        if (frame.Caller is null)
        {
            json["presentationHint"] = "label";
            return json;
        }
        json["moduleId"] = frame.Caller.ModulePath;
        if (frame.Caller.Source is { } source)
        {
            string path = _breakpoints.Map.ToLocal(source.SourcePath);
            json["source"] = new JsonObject { ["name"] = Path.GetFileName(path), ["path"] = path };
            json["endLine"] = source.EndLine;
            json["endColumn"] = source.EndColumn;
        }
        else json["presentationHint"] = "subtle";
        return json;
    }

    /// <summary>Is this stackTrace id a logical async frame (no physical frame, no scopes)?</summary>
    private bool IsAsyncCallerFrame(int frameId)
    {
        try { return _debuggee.Handles.Variables(frameId) is AsyncCallerFrame; }
        catch (Protocol.DapException) { return false; }
    }
}
