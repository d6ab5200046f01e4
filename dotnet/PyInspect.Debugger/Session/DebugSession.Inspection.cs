// threads / stackTrace / scopes / variables / evaluate / setVariable / setExpression /
// gotoTargets / goto: reading (and changing) a stopped process. The reading and writing are
// the collaborators'; here are the requests' arguments and answers.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Evaluation;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    private JsonNode Threads()
    {
        var threads = new JsonArray();
        foreach (var (id, name) in _threads.List())
            threads.Add(new JsonObject { ["id"] = (long)id, ["name"] = name });
        return new JsonObject { ["threads"] = threads };
    }

    private JsonNode StackTrace(JsonObject arguments)
    {
        DebuggerEngine engine = RequireStopped();
        uint threadId = (uint)RequiredInt(arguments, "threadId");
        ICorDebugThread thread = engine.GetThread(threadId) ?? throw new DapException($"Unknown thread {threadId}");
        int start = Math.Max(arguments["startFrame"]?.GetValue<int>() ?? 0, 0);
        int levels = arguments["levels"]?.GetValue<int>() ?? 0;
        List<object> frames = WithAsyncCallers(_debuggee.Walk(threadId, thread), _debuggee.Modules);
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
            ["id"] = _debuggee.Handles.AddFrame(frame, _debuggee.Engine?.EvalGeneration ?? 0),
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

    private JsonNode Scopes(JsonObject arguments)
    {
        RequireStopped();
        int frameId = RequiredInt(arguments, "frameId");
        if (IsAsyncCallerFrame(frameId)) return new JsonObject { ["scopes"] = new JsonArray() };
        _debuggee.Frame(frameId);  // rejects an unknown id now
        var scope = new JsonObject
        {
            ["name"] = "Locals",
            ["presentationHint"] = "locals",
            ["variablesReference"] = _debuggee.Handles.AddVariables(new FrameScope(frameId)),
            ["expensive"] = false,
        };
        return new JsonObject { ["scopes"] = new JsonArray(scope) };
    }

    private JsonNode Variables(JsonObject arguments)
    {
        RequireStopped();
        object source = _debuggee.Handles.Variables(RequiredInt(arguments, "variablesReference"));
        bool hex = arguments["format"]?["hex"]?.GetValue<bool>() ?? false;
        int start = arguments["start"]?.GetValue<int>() ?? 0;
        int? count = arguments["count"]?.GetValue<int>();
        if (start < 0 || count < 0) throw new DapException("'start' and 'count' must not be negative");
        string? filter = arguments["filter"]?.GetValue<string>();
        if (filter is not (null or "named" or "indexed"))
            throw new DapException($"'filter' must be \"named\" or \"indexed\", not \"{filter}\"");
        var views = _variables.Read(source, filter, start, count, hex);
        return new JsonObject { ["variables"] = new JsonArray([.. views.Select(VariableJson)]) };
    }

    private JsonObject VariableJson(VariableView view)
    {
        var json = new JsonObject
        {
            ["name"] = view.Name,
            ["value"] = view.Value,
            ["type"] = view.Type,
            ["evaluateName"] = view.EvaluateName,
            ["variablesReference"] = view.Children is null ? 0 : _debuggee.Handles.AddVariables(view.Children),
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
        uint stopped = _debuggee.StopThreadId;
        ICorDebugThread thread = engine.GetThread(stopped) ?? throw new DapException("evaluate needs a 'frameId': the stopped thread is gone");
        return _debuggee.Walk(stopped, thread, 1).FirstOrDefault()
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
        FrameInfo frame = frameId is { } id ? _debuggee.Frame(id) : TopFrameOfStop();
        int? itemBudget = arguments["itemBudget"]?.GetValue<int>();
        int? timeBudgetMs = arguments["timeBudgetMs"]?.GetValue<int>();
        if (itemBudget is <= 0 || timeBudgetMs is <= 0) throw new DapException("'itemBudget' and 'timeBudgetMs' must be positive");
        VariableView view;
        // A hover never assigns (getters still run, as editors expect); a client asking for no
        // side effects (pyinspect's read-only tools) gets neither assignments nor calls.
        bool noSideEffects = arguments["noSideEffects"]?.GetValue<bool>() == true;
        bool allowAssignments = arguments["context"]?.GetValue<string>() != "hover";
        using (EvalContext context = _evaluator.NewEvalContext(frame, itemBudget, timeBudgetMs is { } ms ? TimeSpan.FromMilliseconds(ms) : null,
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

    private JsonNode SetVariable(JsonObject arguments)
    {
        RequireStopped();
        object source = _debuggee.Handles.Variables(RequiredInt(arguments, "variablesReference"));
        string name = arguments["name"]?.GetValue<string>() ?? throw new DapException("setVariable needs 'name'");
        string text = arguments["value"]?.GetValue<string>()?.Trim() ?? throw new DapException("setVariable needs 'value'");
        bool hex = arguments["format"]?["hex"]?.GetValue<bool>() ?? false;
        return AssignedJson(_writer.SetVariable(source, name, text, hex));
    }

    private JsonNode SetExpression(JsonObject arguments)
    {
        RequireStopped();
        string expression = arguments["expression"]?.GetValue<string>()?.Trim() ?? throw new DapException("setExpression needs 'expression'");
        string text = arguments["value"]?.GetValue<string>()?.Trim() ?? throw new DapException("setExpression needs 'value'");
        int frameId = arguments["frameId"]?.GetValue<int>() ?? throw new DapException("setExpression needs a 'frameId'");
        bool hex = arguments["format"]?["hex"]?.GetValue<bool>() ?? false;
        return AssignedJson(_writer.SetExpression(frameId, expression, text, hex));
    }

    private JsonObject AssignedJson(VariableView view)
    {
        var answer = new JsonObject
        {
            ["value"] = view.Value,
            ["type"] = view.Type,
            ["variablesReference"] = view.Children is null ? 0 : _debuggee.Handles.AddVariables(view.Children),
        };
        if (view.Address is { } address) answer["memoryReference"] = $"0x{address:x}";
        return answer;
    }

    private JsonNode GotoTargets(JsonObject arguments)
    {
        RequireStopped();
        string path = arguments["source"]?["path"]?.GetValue<string>() ?? throw new DapException("gotoTargets needs 'source.path'");
        int line = RequiredInt(arguments, "line");
        return new JsonObject { ["targets"] = _goto.Find(path, line) };
    }

    private JsonNode? Goto(JsonObject arguments)
    {
        RequireStopped();
        uint threadId = (uint)RequiredInt(arguments, "threadId");
        int targetId = RequiredInt(arguments, "targetId");
        _goto.Jump(threadId, targetId);
        Announce(new StopEvent("goto", threadId));
        return null;
    }
}
