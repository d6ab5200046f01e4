// The adapter's facade: a DAP request becomes calls on the collaborators, each of which owns
// its own state (netcoredbg's ManagedDebugger is the model):
//   Debuggee          the process: engine, modules, ids of the current stop, stopped thread
//   DebuggeeLifecycle launch / attach / configurationDone / disconnect / terminate, exit
//   Threads           thread ids and remembered names
//   Breakpoints       source and function breakpoints, and what a hit means
//   ExceptionStops    exception filters, exception events, the exception a thread stopped at
//   StepFilter        what stepping treats as user code (justMyCode, enableStepFiltering)
//   Steppers          plain, await-following and async step-out steps, step-in past
//                     filtered code, step off an async method's end; ended by every stop
//   FrameEvaluator    evaluation contexts on frames (evaluate, conditions, log points)
//   Variables         what a variablesReference shows (locals, elements, fields, getters)
//   VariableWriter    setVariable / setExpression
//   GotoTargets       set next statement
// Requests run one at a time on the protocol's request thread; engine callbacks arrive on
// ICorDebug's thread, are decided by a collaborator, and leave as DAP events through the
// thread-safe sink. The partial files beside this one parse each request family's
// arguments and shape its answer; they hold no state.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession : IDapHandler, IEngineListener
{
    private readonly IEventSink _events;
    private readonly Debuggee _debuggee;
    private readonly DebuggeeLifecycle _lifecycle;
    private readonly Threads _threads;
    private readonly Breakpoints _breakpoints;
    private readonly ExceptionStops _exceptions;
    private readonly StepFilter _stepFilter = new();
    private readonly Steppers _steppers;
    private readonly FrameEvaluator _evaluator;
    private readonly Variables _variables;
    private readonly VariableWriter _writer;
    private readonly GotoTargets _goto;

    public DebugSession(IEventSink events)
    {
        _events = events;
        _debuggee = new Debuggee(events);
        _threads = new Threads(_debuggee);
        _steppers = new Steppers(_debuggee, _stepFilter);
        _exceptions = new ExceptionStops(_debuggee, _stepFilter);
        _evaluator = new FrameEvaluator(_debuggee);
        _breakpoints = new Breakpoints(_debuggee, _evaluator);
        _variables = new Variables(_debuggee, _exceptions);
        _writer = new VariableWriter(_debuggee, _evaluator);
        _goto = new GotoTargets(_debuggee);
        _lifecycle = new DebuggeeLifecycle(_debuggee, this, () =>
        {
            _debuggee.Handles.Clear();
            _steppers.Forget();
        });
    }

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
        catch (Exception error) when (error is EngineException or ValuePathException)
        {
            throw new DapException(error.Message);  // the protocol's error, at the boundary
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
        _events.SendEvent("initialized", null);
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
            ["exceptionBreakpointFilters"] = ExceptionStops.ExceptionFilterCapabilities(),
        };
    }

    private DebuggerEngine RequireEngine() => _debuggee.RequireEngine();

    private DebuggerEngine RequireStopped() => _debuggee.RequireStopped();

    private static int RequiredInt(JsonObject arguments, string name) =>
        arguments[name]?.GetValue<int>() ?? throw new DapException($"missing argument '{name}'");

    /// <summary>A stop a collaborator decided on, announced: true when there was one (the
    /// engine then keeps the process stopped).</summary>
    private bool Announce(StopEvent? stop)
    {
        if (stop is null) return false;
        _debuggee.Handles.Clear();
        SendStopped(stop);
        return true;
    }

    /// <summary>Every stop ends every step and leaves as one `stopped` event.</summary>
    private void SendStopped(StopEvent stop)
    {
        var body = new JsonObject
        {
            ["reason"] = stop.Reason,
            ["threadId"] = (long)stop.ThreadId,
            ["allThreadsStopped"] = true,
        };
        if (stop.HitBreakpointIds is not null) body["hitBreakpointIds"] = stop.HitBreakpointIds;
        if (stop.HitCounts is not null) body["hitCounts"] = stop.HitCounts;
        if (stop.Description is not null) body["description"] = stop.Description;
        if (stop.Text is not null) body["text"] = stop.Text;
        _debuggee.StopThreadId = stop.ThreadId;
        _steppers.CancelAll();
        _events.SendEvent("stopped", body);
    }

    void IEngineListener.ThreadStarted(uint threadId) =>
        _events.SendEvent("thread", new JsonObject { ["reason"] = "started", ["threadId"] = (long)threadId });

    void IEngineListener.ThreadExited(uint threadId) =>
        _events.SendEvent("thread", new JsonObject { ["reason"] = "exited", ["threadId"] = (long)threadId });

    void IEngineListener.ModuleLoaded(ICorDebugModule module, string path)
    {
        LoadedModule loaded = _debuggee.Modules.Add(module, path);
        _stepFilter.MarkUserCode(loaded);
        _events.SendEvent("module", new JsonObject { ["reason"] = "new", ["module"] = ModuleJson(loaded) });
        foreach (var bp in _breakpoints.BindModule(loaded))
            _events.SendEvent("breakpoint", new JsonObject { ["reason"] = "changed", ["breakpoint"] = BreakpointJson(bp) });
    }

    bool IEngineListener.BreakRequested(uint threadId) =>
        Announce(new StopEvent("pause", threadId, Description: "Debugger.Break()"));

    bool IEngineListener.BreakpointHit(uint threadId, ICorDebugFunctionBreakpoint breakpoint)
    {
        if (_steppers.OwnsBreakpoint(threadId, breakpoint)) return false;
        if (_lifecycle.IsEntry(breakpoint)) return Announce(new StopEvent("entry", threadId));
        return Announce(_breakpoints.Hit(threadId, breakpoint));
    }

    bool IEngineListener.StepCompleted(uint threadId, StepperIdentity stepper, CorDebugStepReason reason) =>
        Announce(_steppers.Completed(threadId, stepper, reason));

    bool IEngineListener.ExceptionThrown(uint threadId, int eventType, ExceptionHandlerSite? handler) =>
        Announce(_exceptions.Thrown(threadId, eventType, handler));

    void IEngineListener.PausedInsteadOfContinuing()
    {
        if (_debuggee.Engine is not { } engine) return;
        Announce(new StopEvent("pause", _threads.PickPauseThread(engine)));
    }

    void IEngineListener.ProcessExited() => _lifecycle.ProcessExited();
}
