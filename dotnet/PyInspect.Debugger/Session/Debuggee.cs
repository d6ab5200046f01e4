// What every collaborator of the session shares about the process being debugged: its
// engine once launched or attached, its loaded modules, the ids handed out for the current
// stop, and the thread that stopped. The collaborators keep their own state; this is only
// the process itself and the ways to reach its frames.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public sealed class Debuggee(IEventSink events)
{
    public IEventSink Events => events;
    public ModuleCatalog Modules { get; } = new();
    public StopHandles Handles { get; } = new();

    /// <summary>Set by launch or attach, cleared by disconnect.</summary>
    public DebuggerEngine? Engine { get; set; }

    /// <summary>The thread the last stop reported: the default for continue and evaluate.</summary>
    public uint StopThreadId { get; set; }

    public DebuggerEngine RequireEngine() =>
        Engine ?? throw new DapException("no process: send 'launch' or 'attach' first");

    public DebuggerEngine RequireStopped()
    {
        DebuggerEngine engine = RequireEngine();
        if (engine.HasExited) throw new DapException("the process has exited");
        if (!engine.IsStopped) throw new DapException("the process is running, not stopped: pause it first");
        return engine;
    }

    /// <summary>Func-eval on the current process, reporting a thrown exception by type and message.</summary>
    public IDebuggeeCalls Calls => new FuncEval(RequireEngine(), exception =>
    {
        ExceptionDetails details = ExceptionDetails.Read(exception);
        return (details.TypeName, details.Message);
    });

    public ICorDebugThread? Thread(uint threadId) => Engine?.GetThread(threadId);

    public List<FrameInfo> Walk(uint threadId, ICorDebugThread thread, int maxFrames = 10000) =>
        FrameWalker.Walk(threadId, thread, Modules, maxFrames);

    /// <summary>The thread's top frame with code, or null.</summary>
    public FrameInfo? TopFrame(uint threadId) =>
        Thread(threadId) is { } thread ? Walk(threadId, thread, 1).FirstOrDefault() : null;

    /// <summary>The frame behind a frame id, walked again when a func-eval has run since.</summary>
    public FrameInfo Frame(int frameId) =>
        Handles.Frame(frameId, Engine?.EvalGeneration ?? 0, frame => Engine is not null ? Refreshed(frame) : frame);

    /// <summary>The same frame walked again (same method and IL offset on its thread).</summary>
    public FrameInfo Refreshed(FrameInfo frame)
    {
        if (Thread(frame.ThreadId) is not { } thread) return frame;
        return Walk(frame.ThreadId, thread).FirstOrDefault(f =>
            f.MethodToken == frame.MethodToken && f.IlOffset == frame.IlOffset && f.ModulePath == frame.ModulePath) ?? frame;
    }

    public void SendOutput(string category, string text) =>
        events.SendEvent("output", new JsonObject { ["category"] = category, ["output"] = text });
}

/// <summary>A stop a collaborator decided on; the session announces it (and ends every step).
/// HitCounts, beside HitBreakpointIds, is each breakpoint's hit count (a pyinspect extension:
/// the client shows the adapter's count instead of counting stops).</summary>
public sealed record StopEvent(string Reason, uint ThreadId, JsonArray? HitBreakpointIds = null, string? Description = null,
    string? Text = null, JsonArray? HitCounts = null);
