// continue / pause / next / stepIn / stepOut: the requests that let the process run or
// stop it. The steps themselves are the Steppers'.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    private JsonNode Continue(JsonObject arguments)
    {
        DebuggerEngine engine = RequireStopped();
        Resume(engine, (uint)(arguments["threadId"]?.GetValue<long>() ?? _debuggee.StopThreadId));
        return new JsonObject { ["allThreadsContinued"] = true };
    }

    /// <summary>Every thread runs on; `continued` names the thread the client resumed (DAP
    /// requires a real thread id there, not 0).</summary>
    private void Resume(DebuggerEngine engine, uint threadId)
    {
        _debuggee.Handles.Clear();
        _exceptions.Forget();
        // Raised before the process runs, so it can never follow the stop the resume leads to.
        _events.SendEvent("continued", new JsonObject { ["threadId"] = (long)threadId, ["allThreadsContinued"] = true });
        engine.Continue();
    }

    private JsonNode? Pause()
    {
        DebuggerEngine engine = RequireEngine();
        if (!engine.Pause()) return null;
        Announce(new StopEvent("pause", _threads.PickPauseThread(engine)));
        return null;
    }

    private JsonNode? Step(JsonObject arguments, StepKind kind)
    {
        DebuggerEngine engine = RequireStopped();
        uint threadId = (uint)RequiredInt(arguments, "threadId");
        ICorDebugThread thread = engine.GetThread(threadId) ?? throw new DapException($"Unknown thread {threadId}");
        _steppers.Begin(threadId, thread, kind);
        Resume(engine, threadId);
        return null;
    }
}
