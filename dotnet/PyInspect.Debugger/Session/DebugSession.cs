// DAP requests mapped to engine calls. Requests run one at a time on the protocol's
// request thread; engine callbacks arrive on ICorDebug's thread and leave as DAP events
// through the thread-safe sink. The request families live in the partial files beside
// this one: lifecycle (launch/attach/disconnect), execution, breakpoints, inspection.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession(IEventSink events) : IDapHandler, IEngineListener
{
    private readonly ModuleCatalog _modules = new();
    private readonly BreakpointTable _breakpoints = new();
    private readonly StopHandles _handles = new();
    private DebuggerEngine? _engine;

    public JsonNode? Handle(string command, JsonObject arguments)
    {
        try
        {
            return command switch
            {
                "initialize" => Initialize(),
                "launch" => Launch(arguments),
                "attach" => Attach(arguments),
                "configurationDone" => ConfigurationDone(),
                "disconnect" => Disconnect(arguments),
                "terminate" => Terminate(),
                "setBreakpoints" => SetBreakpoints(arguments),
                "setFunctionBreakpoints" => SetFunctionBreakpoints(arguments),
                "setExceptionBreakpoints" => SetExceptionBreakpoints(arguments),
                "exceptionInfo" => ExceptionInfo(arguments),
                "threads" => Threads(),
                "pause" => Pause(),
                "continue" => Continue(arguments),
                "next" => Step(arguments, StepKind.Over),
                "stepIn" => Step(arguments, StepKind.In),
                "stepOut" => Step(arguments, StepKind.Out),
                "stackTrace" => StackTrace(arguments),
                "scopes" => Scopes(arguments),
                "variables" => Variables(arguments),
                "evaluate" => Evaluate(arguments),
                "setVariable" => SetVariable(arguments),
                "setExpression" => SetExpression(arguments),
                "readMemory" => ReadMemory(arguments),
                "gotoTargets" => GotoTargets(arguments),
                "modules" => Modules(arguments),
                "goto" => Goto(arguments),
                _ => throw new DapException($"unsupported command '{command}'"),
            };
        }
        catch (EngineException error)
        {
            throw new DapException(error.Message);
        }
        catch (InvalidOperationException error) when (error.Source == "System.Text.Json")
        {
            throw new DapException($"bad arguments for '{command}': {error.Message}");
        }
        catch (FormatException error)
        {
            throw new DapException($"bad arguments for '{command}': {error.Message}");
        }
    }

    private JsonNode Initialize()
    {
        events.SendEvent("initialized", null);
        return new JsonObject
        {
            ["supportsConfigurationDoneRequest"] = true,
            ["supportsTerminateRequest"] = true,
            ["supportsHitConditionalBreakpoints"] = true,
            ["supportsConditionalBreakpoints"] = true,
            ["supportsLogPoints"] = true,
            ["supportsDelayedStackTraceLoading"] = true,
            ["supportsValueFormattingOptions"] = true,
            ["supportsEvaluateForHovers"] = true,
            ["supportsTerminateDebuggee"] = true,
            ["supportsConditionalBreakpoints"] = true,
            ["supportsFunctionBreakpoints"] = true,
            ["supportsSetVariable"] = true,
            ["supportsSetExpression"] = true,
            ["supportsReadMemoryRequest"] = true,
            ["supportsGotoTargetsRequest"] = true,
            ["supportsModulesRequest"] = true,
            ["supportsExceptionInfoRequest"] = true,
            ["supportsExceptionFilterOptions"] = true,
            ["exceptionBreakpointFilters"] = ExceptionFilterCapabilities(),
        };
    }

    private DebuggerEngine RequireEngine() =>
        _engine ?? throw new DapException("no process: send 'launch' or 'attach' first");

    private DebuggerEngine RequireStopped()
    {
        DebuggerEngine engine = RequireEngine();
        if (engine.HasExited) throw new DapException("the process has exited");
        if (!engine.IsStopped) throw new DapException("the process is running, not stopped: pause it first");
        return engine;
    }

    private static int RequiredInt(JsonObject arguments, string name) =>
        arguments[name]?.GetValue<int>() ?? throw new DapException($"missing argument '{name}'");

    private void SendStopped(string reason, uint threadId, JsonArray? hitBreakpointIds = null, string? description = null,
        string? text = null)
    {
        var body = new JsonObject
        {
            ["reason"] = reason,
            ["threadId"] = (long)threadId,
            ["allThreadsStopped"] = true,
        };
        if (hitBreakpointIds is not null) body["hitBreakpointIds"] = hitBreakpointIds;
        if (description is not null) body["description"] = description;
        if (text is not null) body["text"] = text;
        _stopThreadId = threadId;
        CancelSteppers();
        EndAsyncStep();  // whatever stopped, a step over or out of an await is no longer waiting
        EndAsyncStepOut();
        events.SendEvent("stopped", body);
    }

    private void SendOutput(string category, string text) =>
        events.SendEvent("output", new JsonObject { ["category"] = category, ["output"] = text });

    void IEngineListener.ThreadStarted(uint threadId) =>
        events.SendEvent("thread", new JsonObject { ["reason"] = "started", ["threadId"] = (long)threadId });

    void IEngineListener.ThreadExited(uint threadId) =>
        events.SendEvent("thread", new JsonObject { ["reason"] = "exited", ["threadId"] = (long)threadId });

    void IEngineListener.ModuleLoaded(ICorDebugModule module, string path)
    {
        LoadedModule loaded = _modules.Add(module, path);
        _stepFilter.MarkUserCode(loaded);
        events.SendEvent("module", new JsonObject { ["reason"] = "new", ["module"] = ModuleJson(loaded) });
        foreach (var bp in _breakpoints.BindModule(loaded))
            events.SendEvent("breakpoint", new JsonObject { ["reason"] = "changed", ["breakpoint"] = BreakpointJson(bp) });
    }

    /// <summary>modules: what the debuggee has loaded, in load order, pageable.</summary>
    private JsonNode Modules(JsonObject arguments)
    {
        RequireEngine();
        int start = arguments["startModule"]?.GetValue<int>() ?? 0;
        int count = arguments["moduleCount"]?.GetValue<int>() ?? 0;
        if (start < 0 || count < 0) throw new DapException("'startModule' and 'moduleCount' must not be negative");
        var all = _modules.All();
        var page = all.Skip(start).Take(count == 0 ? int.MaxValue : count);
        return new JsonObject { ["modules"] = new JsonArray([.. page.Select(ModuleJson)]), ["totalModules"] = all.Count };
    }

    private static JsonObject ModuleJson(LoadedModule module) => new()
    {
        ["id"] = module.Path, ["name"] = module.FileName, ["path"] = module.Path,
        ["symbolStatus"] = module.Symbols is null ? "Symbols not found." : "Symbols loaded.",
        ["isUserCode"] = module.Symbols is not null,
    };

    bool IEngineListener.BreakRequested(uint threadId)
    {
        _handles.Clear();
        SendStopped("pause", threadId, description: "Debugger.Break()");
        return true;
    }
}
