// continue / pause / next / stepIn / stepOut, and the stops they lead to.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public enum StepKind { Over, In, Out }

public sealed partial class DebugSession
{
    private ICorDebugStepper? _activeStepper;

    /// <summary>The one place a stop ends every step: the one we started and any other
    /// ICorDebug still holds (a step that ended elsewhere, on a breakpoint or a pause).</summary>
    private void CancelSteppers()
    {
        _activeStepper?.Deactivate();
        _activeStepper = null;
        try { _engine?.CancelAllSteppers(); }
        catch (Exception error) when (error is EngineException or System.Runtime.InteropServices.COMException)
        {
            SendOutput("console", $"could not cancel the steppers: {error.Message}\n");
        }
    }

    private JsonNode Continue(JsonObject arguments)
    {
        DebuggerEngine engine = RequireStopped();
        Resume(engine, (uint)(arguments["threadId"]?.GetValue<long>() ?? _stopThreadId));
        return new JsonObject { ["allThreadsContinued"] = true };
    }

    /// <summary>Every thread runs on; `continued` names the thread the client resumed (DAP
    /// requires a real thread id there, not 0).</summary>
    private void Resume(DebuggerEngine engine, uint threadId)
    {
        _handles.Clear();
        ForgetExceptions();
        // Raised before the process runs, so it can never follow the stop the resume leads to.
        events.SendEvent("continued", new JsonObject { ["threadId"] = (long)threadId, ["allThreadsContinued"] = true });
        engine.Continue();
    }

    private JsonNode? Pause()
    {
        DebuggerEngine engine = RequireEngine();
        if (!engine.Pause()) return null;
        _handles.Clear();
        SendStopped("pause", PickPauseThread(engine));
        return null;
    }

    void IEngineListener.PausedInsteadOfContinuing()
    {
        if (_engine is not { } engine) return;
        _handles.Clear();
        SendStopped("pause", PickPauseThread(engine));
    }

    /// <summary>The thread a pause reports: the first one running code with source, else the first.</summary>
    private uint PickPauseThread(DebuggerEngine engine)
    {
        IReadOnlyList<uint> ids = engine.GetThreadIds();
        foreach (uint id in ids)
            if (engine.GetThread(id) is { } thread && FrameWalker.Walk(id, thread, _modules, 64).Any(f => f.Source is not null))
                return id;
        return ids.Count > 0 ? ids[0] : 0;
    }

    private JsonNode? Step(JsonObject arguments, StepKind kind)
    {
        DebuggerEngine engine = RequireStopped();
        uint threadId = (uint)RequiredInt(arguments, "threadId");
        ICorDebugThread thread = engine.GetThread(threadId) ?? throw new DapException($"Unknown thread {threadId}");
        _steppingInPastFiltered = false;
        if (kind == StepKind.Over) PrepareAsyncStep(threadId, thread);
        else EndAsyncStep();
        if (kind == StepKind.Over) PrepareStepOffAsyncEnd(threadId, thread);
        else _steppingOffAsyncEnd = false;
        if (kind == StepKind.Out && PrepareAsyncStepOut(threadId, thread))
            _activeStepper = null;  // the caller is reached through the task's completion, not the stack
        else
            _activeStepper = Stepping.Begin(threadId, thread, kind, _modules);
        Resume(engine, threadId);
        return null;
    }

    /// <summary>A step that ends in code without source (an async method's kickoff stub) steps
    /// out on to the next frame with source; one that left user code for good (Main returned
    /// into the runtime) lets the process run on.</summary>
    bool IEngineListener.StepCompleted(uint threadId, StepperIdentity stepper, CorDebugStepReason reason)
    {
        if (!stepper.Is(_activeStepper)) return false;  // a step cancelled by a stop, its callback queued before it
        _activeStepper = null;
        if (StepEndedInsideAwait()) return false;  // the method waits at an await: the step ends where it resumes
        if (_engine?.GetThread(threadId) is not { } thread) return false;
        if (StepInGoesOn(threadId, thread, reason) || StepOffAsyncEndGoesOn(threadId, thread, reason)) return false;
        if (FrameWalker.Walk(threadId, thread, _modules, 1).FirstOrDefault()?.Source is null)
        {
            if (FrameWalker.Walk(threadId, thread, _modules, 64).Skip(1).Any(f => f.Source is not null))
                _activeStepper = Stepping.Begin(threadId, thread, StepKind.Out, _modules);
            return false;
        }
        _handles.Clear();
        SendStopped("step", threadId);
        return true;
    }

    bool IEngineListener.BreakpointHit(uint threadId, ICorDebugFunctionBreakpoint breakpoint)
    {
        if (ResumeBreakpointHit(threadId, breakpoint) || WaitCompletionNotified(threadId, breakpoint)) return false;
        if (_entryBreakpoint is not null && IsSameLocation(breakpoint, _entryBreakpoint))
        {
            _entryBreakpoint.Activate(0);
            _entryBreakpoint = null;
            return StopHere("entry", threadId);
        }
        SourceBreakpoint? bp = _breakpoints.Find(breakpoint);
        if (bp is null) return false;
        if (bp.Request.Condition is { } condition && !string.IsNullOrWhiteSpace(condition))
        {
            if (!ConditionHolds(threadId, condition, out string? why)) return false;
            if (why is not null)
            {
                SendOutput("console", $"Breakpoint condition '{condition}' could not be evaluated, so the breakpoint stopped: {why}\n");
                return StopHere("breakpoint", threadId, new JsonArray(bp.Id));
            }
        }
        if (!bp.CountHit()) return false;
        if (bp.Request.LogMessage is { } message)
        {
            SendOutput("console", LogMessage(threadId, message) + "\n");
            return false;
        }
        return StopHere("breakpoint", threadId, new JsonArray(bp.Id));
    }

    private bool StopHere(string reason, uint threadId, JsonArray? hitIds = null)
    {
        _handles.Clear();
        SendStopped(reason, threadId, hitIds);
        return true;
    }

    private static bool IsSameLocation(ICorDebugFunctionBreakpoint a, ICorDebugFunctionBreakpoint b)
    {
        if (a.GetOffset(out uint offsetA) < 0 || b.GetOffset(out uint offsetB) < 0 || offsetA != offsetB) return false;
        if (a.GetFunction(out var fa) < 0 || b.GetFunction(out var fb) < 0) return false;
        fa.GetToken(out int tokenA);
        fb.GetToken(out int tokenB);
        if (tokenA != tokenB) return false;
        fa.GetModule(out var ma);
        fb.GetModule(out var mb);
        return DebuggerEngine.ModuleName(ma) == DebuggerEngine.ModuleName(mb);
    }
}
