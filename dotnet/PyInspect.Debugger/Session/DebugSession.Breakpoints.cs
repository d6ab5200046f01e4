// setBreakpoints: a file's whole set at once, bound now where the module is loaded,
// pending (verified: false) until it loads; setFunctionBreakpoints; setExceptionBreakpoints
// and exceptionInfo. The tables are the Breakpoints' and the ExceptionStops'.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    private JsonNode SetBreakpoints(JsonObject arguments)
    {
        string path = arguments["source"]?["path"]?.GetValue<string>()
            ?? throw new DapException("setBreakpoints needs 'source.path'");
        var requests = new List<BreakpointRequest>();
        foreach (var item in arguments["breakpoints"]?.AsArray() ?? [])
        {
            int line = item?["line"]?.GetValue<int>() ?? throw new DapException("every breakpoint needs a 'line'");
            string? hit = item!["hitCondition"]?.GetValue<string>();
            if (!SourceBreakpoint.IsValidHitCondition(hit))
                throw new DapException($"bad hitCondition '{hit}': use N, == N, >= N, > N, <= N, < N or % N");
            requests.Add(new BreakpointRequest(line, item["condition"]?.GetValue<string>(), hit,
                item["logMessage"]?.GetValue<string>()));
        }
        IReadOnlyList<SourceBreakpoint> created = _breakpoints.Replace(path, requests);
        return new JsonObject { ["breakpoints"] = new JsonArray([.. created.Select(BreakpointJson)]) };
    }

    /// <summary>By "Namespace.Type.Method", every overload; replaces the previous set.</summary>
    private JsonNode SetFunctionBreakpoints(JsonObject arguments)
    {
        var requests = new List<BreakpointRequest>();
        foreach (var item in arguments["breakpoints"]?.AsArray() ?? [])
        {
            string name = item?["name"]?.GetValue<string>()?.Trim() is { Length: > 0 } given
                ? given : throw new DapException("every function breakpoint needs a 'name'");
            if (!name.Split('(')[0].Contains('.'))
                throw new DapException($"function breakpoint '{name}': use Namespace.Type.Method");
            string? hit = item!["hitCondition"]?.GetValue<string>();
            if (!SourceBreakpoint.IsValidHitCondition(hit))
                throw new DapException($"bad hitCondition '{hit}': use N, == N, >= N, > N, <= N, < N or % N");
            requests.Add(new BreakpointRequest(0, item["condition"]?.GetValue<string>(), hit, null, name));
        }
        IReadOnlyList<SourceBreakpoint> created = _breakpoints.Replace(BreakpointTable.FunctionsKey, requests);
        return new JsonObject { ["breakpoints"] = new JsonArray([.. created.Select(BreakpointJson)]) };
    }

    private JsonNode SetExceptionBreakpoints(JsonObject arguments)
    {
        var chosen = new Dictionary<string, ExceptionTypeFilter>();
        foreach (JsonNode? filter in arguments["filters"] as JsonArray ?? [])
            chosen[ExceptionStops.KnownFilter(filter?.GetValue<string>())] = ExceptionTypeFilter.Any;
        foreach (JsonNode? option in arguments["filterOptions"] as JsonArray ?? [])
            chosen[ExceptionStops.KnownFilter(option?["filterId"]?.GetValue<string>())] =
                ExceptionTypeFilter.Parse(option?["condition"]?.GetValue<string>());
        _exceptions.SetFilters(chosen);
        return new JsonObject
        {
            ["breakpoints"] = new JsonArray([.. chosen.Keys.Select(_ => (JsonNode)new JsonObject { ["verified"] = true })]),
        };
    }

    private JsonNode ExceptionInfo(JsonObject arguments)
    {
        RequireStopped();
        uint threadId = (uint)RequiredInt(arguments, "threadId");
        var current = _exceptions.Current(threadId);
        return new JsonObject
        {
            ["exceptionId"] = current.Details.TypeName,
            ["description"] = current.Details.Message,
            ["breakMode"] = current.BreakMode,
            ["details"] = current.Details.ToJson(),
        };
    }

    private static JsonNode BreakpointJson(SourceBreakpoint bp)
    {
        if (bp.Code.Error is { } error) return new JsonObject { ["id"] = bp.Id, ["verified"] = false, ["message"] = error };
        if (bp.SourcePath == BreakpointTable.FunctionsKey)
            return new JsonObject
            {
                ["id"] = bp.Id, ["verified"] = false,
                ["message"] = $"pending: no loaded module with symbols has a method {bp.Request.FunctionName}",
            };
        var json = new JsonObject
        {
            ["id"] = bp.Id,
            ["verified"] = bp.Verified,
            ["line"] = bp.Line,
            ["source"] = new JsonObject { ["path"] = bp.SourcePath, ["name"] = Path.GetFileName(bp.SourcePath) },
        };
        if (bp.Column is { } column) json["column"] = column;
        if (!bp.Verified) json["message"] = "pending: no loaded module has code at this line yet";
        return json;
    }
}
