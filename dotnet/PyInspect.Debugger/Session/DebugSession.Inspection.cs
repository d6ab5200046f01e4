// threads / stackTrace / scopes / variables / evaluate: reading a stopped process.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    private readonly Dictionary<uint, string> _threadNames = [];

    /// <summary>While stopped, read from the process (names included, and remembered); while
    /// running, the threads the callbacks reported with the names last read, without
    /// stopping the process.</summary>
    private JsonNode Threads()
    {
        DebuggerEngine engine = RequireEngine();
        var threads = new JsonArray();
        bool readable = engine.IsSynchronized;
        foreach (uint id in engine.GetThreadIds())
            threads.Add(new JsonObject { ["id"] = (long)id, ["name"] = readable ? RememberName(engine, id) : KnownName(engine, id) });
        return new JsonObject { ["threads"] = threads };
    }

    /// <summary>Read every thread's name while the process is synchronized (attach, stops).</summary>
    private void RememberThreadNames(DebuggerEngine engine)
    {
        foreach (uint id in engine.GetThreadIds()) RememberName(engine, id);
    }

    private string RememberName(DebuggerEngine engine, uint id)
    {
        string name = ThreadNames.Read(engine, id);
        lock (_threadNames) _threadNames[id] = name;
        return name;
    }

    private string KnownName(DebuggerEngine engine, uint id)
    {
        lock (_threadNames)
            if (_threadNames.TryGetValue(id, out string? name)) return name;
        return ThreadNames.Read(engine, id);  // the fallback name: the process is not synchronized
    }

    private JsonNode StackTrace(JsonObject arguments)
    {
        DebuggerEngine engine = RequireStopped();
        uint threadId = (uint)RequiredInt(arguments, "threadId");
        ICorDebugThread thread = engine.GetThread(threadId) ?? throw new DapException($"Unknown thread {threadId}");
        int start = Math.Max(arguments["startFrame"]?.GetValue<int>() ?? 0, 0);
        int levels = arguments["levels"]?.GetValue<int>() ?? 0;
        List<object> frames = WithAsyncCallers(FrameWalker.Walk(threadId, thread, _modules), _modules);
        var page = levels > 0 ? frames.Skip(start).Take(levels) : frames.Skip(start);
        return new JsonObject
        {
            ["stackFrames"] = new JsonArray([.. page.Select(StackFrameJson)]),
            ["totalFrames"] = frames.Count,
        };
    }

    private JsonNode FrameJson(FrameInfo frame)
    {
        var json = new JsonObject
        {
            ["id"] = _handles.AddFrame(frame, _engine?.EvalGeneration ?? 0),
            ["name"] = frame.Name,
            ["line"] = frame.Source?.Line ?? 0,
            ["column"] = frame.Source?.Column ?? 0,
            ["moduleId"] = frame.ModulePath,  // the id the modules request and `module` events give it
        };
        if (frame.Source is { } source)
        {
            string path = _breakpoints.Map.ToLocal(source.SourcePath);
            json["source"] = new JsonObject { ["name"] = Path.GetFileName(path), ["path"] = path };
            json["endLine"] = source.EndLine;
            json["endColumn"] = source.EndColumn;
        }
        else
        {
            json["presentationHint"] = "subtle";
        }
        return json;
    }

    /// <summary>A scope's variablesReference: the frame's id, resolved (and refreshed) when read.</summary>
    private sealed record FrameScope(int FrameId);

    private FrameInfo FrameFor(int frameId) =>
        _handles.Frame(frameId, _engine?.EvalGeneration ?? 0, frame => _engine is { } engine ? Refreshed(engine, frame) : frame);

    /// <summary>A frame's arguments and locals; at an exception stop, the leaf frame's list
    /// starts with `$exception`, the exception object itself.</summary>
    private List<VariableView> ScopeVariables(FrameScope scope, bool hex)
    {
        FrameInfo frame = FrameFor(scope.FrameId);
        List<VariableView> views = FrameVariables.Read(frame, hex);
        if (_engine?.GetThread(frame.ThreadId) is { } thread && IsLeaf(frame) && IsAtException(frame.ThreadId)
            && thread.GetCurrentException(out var exception) >= 0)
            views.Insert(0, VariableReader.Describe("$exception", "$exception", exception, hex) with { Kind = "exception" });
        return views;
    }

    private bool IsLeaf(FrameInfo frame) =>
        _engine?.GetThread(frame.ThreadId) is { } thread
        && FrameWalker.Walk(frame.ThreadId, thread, _modules, 1).FirstOrDefault() is { } top
        && top.MethodToken == frame.MethodToken && top.IlOffset == frame.IlOffset && top.ModulePath == frame.ModulePath;

    private JsonNode Scopes(JsonObject arguments)
    {
        RequireStopped();
        int frameId = RequiredInt(arguments, "frameId");
        if (IsAsyncCallerFrame(frameId)) return new JsonObject { ["scopes"] = new JsonArray() };
        FrameFor(frameId);  // rejects an unknown id now
        var scope = new JsonObject
        {
            ["name"] = "Locals",
            ["presentationHint"] = "locals",
            ["variablesReference"] = _handles.AddVariables(new FrameScope(frameId)),
            ["expensive"] = false,
        };
        return new JsonObject { ["scopes"] = new JsonArray(scope) };
    }

    private JsonNode Variables(JsonObject arguments)
    {
        RequireStopped();
        object source = _handles.Variables(RequiredInt(arguments, "variablesReference"));
        bool hex = arguments["format"]?["hex"]?.GetValue<bool>() ?? false;
        int start = arguments["start"]?.GetValue<int>() ?? 0;
        int? count = arguments["count"]?.GetValue<int>();
        if (start < 0 || count < 0) throw new DapException("'start' and 'count' must not be negative");
        string? filter = arguments["filter"]?.GetValue<string>();
        if (filter is not (null or "named" or "indexed"))
            throw new DapException($"'filter' must be \"named\" or \"indexed\", not \"{filter}\"");
        ChildSource children = source is FrameScope scope ? new ListChildren(ScopeVariables(scope, hex)) : (ChildSource)source;
        var views = Filtered(children, filter, start, count, hex);
        return new JsonObject { ["variables"] = new JsonArray([.. views.Select(VariableJson)]) };
    }

    /// <summary>DAP's `filter`: VS Code asks a variable with both counts twice, once for its
    /// named and once for its indexed children; each must answer only its own kind, or every
    /// element shows twice. Elements of arrays and collections are indexed, the rest named.</summary>
    private IReadOnlyList<VariableView> Filtered(ChildSource children, string? filter, int start, int? count, bool hex)
    {
        switch (children, filter)
        {
            case (ArrayChildren, "named"):
            case (ObjectChildren or ListChildren, "indexed"):
                return [];
            case (CollectionChildren collection, "named"):
                return start > 0 ? [] : ChildReader.Read(collection, collection.Count, 1, hex);  // its Raw View
            case (CollectionChildren collection, "indexed"):
                int take = Math.Min(count is > 0 ? count.Value : VariableReader.DefaultPageSize, collection.Count - start);
                return take <= 0 ? [] : ChildReader.Read(collection, start, take, hex);
            case (ObjectChildren members, _):
                return ObjectMembers(members, start, count, hex);
            default:
                return ChildReader.Read(children, start, count, hex);
        }
    }

    private JsonObject VariableJson(VariableView view)
    {
        var json = new JsonObject
        {
            ["name"] = view.Name,
            ["value"] = view.Value,
            ["type"] = view.Type,
            ["evaluateName"] = view.EvaluateName,
            ["variablesReference"] = view.Children is null ? 0 : _handles.AddVariables(view.Children),
        };
        if (view.Address is { } address) json["memoryReference"] = $"0x{address:x}";
        if (view.NamedCount > 0) json["namedVariables"] = view.NamedCount;
        if (view.IndexedCount > 0) json["indexedVariables"] = view.IndexedCount;
        if (view.Kind is not null) json["pyinspectKind"] = view.Kind;
        return json;
    }

    private FrameInfo TopFrameOfStop()
    {
        DebuggerEngine engine = RequireStopped();
        ICorDebugThread thread = engine.GetThread(_stopThreadId) ?? throw new DapException("evaluate needs a 'frameId': the stopped thread is gone");
        return FrameWalker.Walk(_stopThreadId, thread, _modules, 1).FirstOrDefault()
            ?? throw new DapException("evaluate needs a 'frameId': the stopped thread has no managed frame with code");
    }

    private JsonNode Evaluate(JsonObject arguments)
    {
        string expression = arguments["expression"]?.GetValue<string>()?.Trim()
            ?? throw new DapException("evaluate needs 'expression'");
        RequireStopped();
        bool hex = arguments["format"]?["hex"]?.GetValue<bool>() ?? false;
        int? frameId = arguments["frameId"]?.GetValue<int>();
        // Without a frame (a watch or console with nothing selected): the top frame of the thread that stopped.
        FrameInfo frame = frameId is { } id ? FrameFor(id) : TopFrameOfStop();
        int? itemBudget = arguments["itemBudget"]?.GetValue<int>();
        int? timeBudgetMs = arguments["timeBudgetMs"]?.GetValue<int>();
        if (itemBudget is <= 0 || timeBudgetMs is <= 0) throw new DapException("'itemBudget' and 'timeBudgetMs' must be positive");
        VariableView view;
        // A hover never assigns (getters still run, as editors expect); a client asking for no
        // side effects (pyinspect's read-only tools) gets neither assignments nor calls.
        bool noSideEffects = arguments["noSideEffects"]?.GetValue<bool>() == true;
        bool allowAssignments = arguments["context"]?.GetValue<string>() != "hover";
        using (EvalContext context = NewEvalContext(frame, itemBudget, timeBudgetMs is { } ms ? TimeSpan.FromMilliseconds(ms) : null,
                   allowAssignments, noSideEffects))
        {
            try { view = ExpressionEvaluator.Evaluate(expression, context, hex); }
            catch (EvalException error) { throw new DapException(error.Message); }
        }
        JsonObject json = VariableJson(view);
        var result = new JsonObject
        {
            ["result"] = view.Value,
            ["type"] = view.Type,
            ["variablesReference"] = json["variablesReference"]!.GetValue<int>(),
        };
        if (view.Address is { } address) result["memoryReference"] = $"0x{address:x}";
        if (view.NamedCount > 0) result["namedVariables"] = view.NamedCount;
        if (view.IndexedCount > 0) result["indexedVariables"] = view.IndexedCount;
        return result;
    }
}
