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

    /// <summary>By name as the user typed it (FunctionName); replaces the previous set. Each
    /// name is answered on its own: one that cannot be a function name, or has a bad hit
    /// condition, is `verified: false` with the reason, and the others still bind.</summary>
    private JsonNode SetFunctionBreakpoints(JsonObject arguments)
    {
        var requests = new List<BreakpointRequest>();
        var refusals = new List<string?>();
        foreach (var item in arguments["breakpoints"]?.AsArray() ?? [])
        {
            string name = item?["name"]?.GetValue<string>()?.Trim() ?? "";
            string? hit = item?["hitCondition"]?.GetValue<string>();
            string? refusal = FunctionName.TryParse(name, out string why) is null ? why
                : SourceBreakpoint.IsValidHitCondition(hit) ? null
                : $"bad hitCondition '{hit}': use N, == N, >= N, > N, <= N, < N or % N";
            refusals.Add(refusal);
            if (refusal is null) requests.Add(new BreakpointRequest(0, item!["condition"]?.GetValue<string>(), hit, null, name));
        }
        var created = new Queue<SourceBreakpoint>(_breakpoints.Replace(BreakpointTable.FunctionsKey, requests));
        var answers = refusals.Select(refusal => refusal is null
            ? BreakpointJson(created.Dequeue())
            : new JsonObject { ["verified"] = false, ["message"] = refusal });
        return new JsonObject { ["breakpoints"] = new JsonArray([.. answers]) };
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
        {
            var function = new JsonObject { ["id"] = bp.Id, ["verified"] = bp.Verified };
            if (!bp.Verified) function["message"] = $"pending: no loaded module with symbols has a method {bp.Request.FunctionName}";
            return function;
        }
        var json = new JsonObject
        {
            ["id"] = bp.Id,
            ["verified"] = bp.Verified,
            ["line"] = bp.Line,
            ["source"] = new JsonObject { ["path"] = bp.SourcePath, ["name"] = Path.GetFileName(bp.SourcePath) },
        };
        if (bp.Column is { } column) json["column"] = column;
        if (!bp.Verified) json["message"] = bp.Message ?? "pending: no loaded module has code at this line yet";
        return json;
    }
}
