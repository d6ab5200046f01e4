// launch with `noDebug: true` (VS Code's "Run Without Debugging"): the program runs as it
// would from a shell, with no startup hook and no debugger attached; its output still comes
// as `output` events and its end as `exited` and `terminated`. Breakpoints are accepted and
// never bind; disconnect and terminate end it as they end a debuggee.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    private bool _runningUndebugged;

    private static bool NoDebugRequested(JsonObject arguments) => arguments["noDebug"] switch
    {
        null => false,
        JsonValue value when value.TryGetValue(out bool flag) => flag,
        var other => throw new DapException($"'noDebug' must be true or false, not {other.ToJsonString()}"),
    };

    private JsonNode? RunWithoutDebugging(LaunchRequest request, string program)
    {
        if (_runningUndebugged) throw new DapException("already running a program");
        LaunchedProgram launched = ProcessLauncher.Start(request, text => SendOutput("stdout", text), text => SendOutput("stderr", text),
            withDebugger: false);
        _launched = launched;
        _runningUndebugged = true;
        _programPath = Path.GetFullPath(program, request.Cwd ?? Environment.CurrentDirectory);
        events.SendEvent("process", new JsonObject
        {
            ["name"] = Path.GetFileName(_programPath), ["systemProcessId"] = launched.ProcessId,
            ["isLocalProcess"] = true, ["startMethod"] = "launch",
        });
        launched.Waiter.Exited += (_, _) => ReportUndebuggedExit();
        if (launched.Waiter.HasExited) ReportUndebuggedExit();
        return null;
    }

    private int _undebuggedExitReported;

    /// <summary>`exited` (with the code) and `terminated`, once, as after a debugged run.</summary>
    private void ReportUndebuggedExit()
    {
        if (Interlocked.Exchange(ref _undebuggedExitReported, 1) == 0) ((IEngineListener)this).ProcessExited();
    }

    /// <summary>Disconnect (waits for the end, unless told to leave it running) or terminate
    /// (answered at once): SIGTERM, then SIGKILL after the grace.</summary>
    private JsonNode? StopUndebugged(JsonObject arguments, bool wait)
    {
        bool terminate = arguments["terminateDebuggee"]?.GetValue<bool>() ?? true;
        if (!terminate || _launched is not { } launched || launched.Waiter.HasExited) return null;
        Task ending = ProcessSignals.TerminateAsync(launched.ProcessId, launched.Waiter);
        if (wait) ending.Wait(ProcessSignals.Grace * 2);
        return null;
    }
}
