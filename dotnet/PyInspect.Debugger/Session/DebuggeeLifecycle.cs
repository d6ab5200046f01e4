// A debuggee's life: launch or attach, configurationDone (with stop-at-entry), disconnect
// or terminate, and the process's exit. Sets and clears the engine the others share.
// A launch with `noDebug: true` (VS Code's "Run Without Debugging") runs the program as it
// would from a shell, with no startup hook and no debugger attached; its output still comes
// as `output` events and its end as `exited` and `terminated`. Breakpoints are accepted and
// never bind; disconnect and terminate end it as they end a debuggee.
using System.Diagnostics;
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Session;

public sealed class DebuggeeLifecycle(Debuggee debuggee, IEngineListener listener, Action forgetSteps)
{
    private static readonly TimeSpan LaunchTimeout = TimeSpan.FromSeconds(20);
    private LaunchedProgram? _launched;
    private string? _programPath;
    private bool _stopAtEntry;
    private bool _configured;
    private ICorDebugFunctionBreakpoint? _entryBreakpoint;
    private int _terminatedSent;
    private bool _runningUndebugged;
    private int _undebuggedExitReported;

    public void Launch(LaunchRequest request, bool stopAtEntry)
    {
        _stopAtEntry = stopAtEntry;
        LaunchedProgram launched = ProcessLauncher.Start(request, text => debuggee.SendOutput("stdout", text),
            text => debuggee.SendOutput("stderr", text));
        _launched = launched;
        _programPath = request.Program;
        try
        {
            ProcessLauncher.WaitForHook(launched, LaunchTimeout);
            debuggee.Engine = DebuggerEngine.AttachLaunched(launched.ProcessId, listener, LaunchTimeout);
        }
        catch
        {
            string? startKey = RuntimeFiles.StartKey(launched.ProcessId);
            try { launched.Waiter.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
            if (startKey is not null) RuntimeFiles.RemoveOf(launched.ProcessId, startKey); // it is being killed
            _launched = null;
            throw;
        }
        debuggee.Events.SendEvent("process", new JsonObject
        {
            ["name"] = Path.GetFileName(_programPath), ["systemProcessId"] = launched.ProcessId,
            ["isLocalProcess"] = true, ["startMethod"] = "launch",
        });
    }

    /// <summary>`whileStopped` runs in the one brief stop attaching makes (the threads that already run).</summary>
    public void Attach(int processId, Action<DebuggerEngine> whileStopped)
    {
        if (!File.Exists($"/proc/{processId}/maps")) throw new DapException($"no process with id {processId}");
        DebuggerEngine engine = DebuggerEngine.Attach(processId, listener);
        debuggee.Engine = engine;
        engine.WhileStopped(() => { whileStopped(engine); return 0; });
        _configured = true;
        debuggee.Events.SendEvent("process", new JsonObject
        {
            ["name"] = ProcessName(processId), ["systemProcessId"] = processId,
            ["isLocalProcess"] = true, ["startMethod"] = "attach",
        });
    }

    private static string ProcessName(int processId)
    {
        try { return Process.GetProcessById(processId).ProcessName; }
        catch (Exception error) when (error is ArgumentException or InvalidOperationException) { return $"process {processId}"; }
    }

    /// <summary>After launch: the debuggee is held before Main; breakpoints are bound; let it run.</summary>
    public void ConfigurationDone()
    {
        if (debuggee.Engine is not { } engine || _configured) return;
        _configured = true;
        if (_stopAtEntry) _entryBreakpoint = CreateEntryBreakpoint();
        engine.Continue();
    }

    /// <summary>The stop-at-entry breakpoint (once: it is removed when hit).</summary>
    public bool IsEntry(ICorDebugFunctionBreakpoint breakpoint)
    {
        if (_entryBreakpoint is null || !BreakpointLocation.Same(breakpoint, _entryBreakpoint)) return false;
        _entryBreakpoint.Activate(0);
        _entryBreakpoint = null;
        return true;
    }

    /// <summary>At the first line of the user's Main body (UserEntry: through an async Main's state machine).</summary>
    private ICorDebugFunctionBreakpoint? CreateEntryBreakpoint()
    {
        if (_programPath is null || debuggee.Modules.Find(_programPath) is not { } program) return null;
        var metadata = ModuleMetadata.Open(program.Path);
        (int Token, int Offset)? entry = program.Symbols is { } symbols
            ? UserEntry.Find(metadata, symbols) : (metadata.GetEntryPointToken(), 0);
        if (entry is not { Token: not 0 } at || program.Module.GetFunctionFromToken(at.Token, out var main) < 0) return null;
        if (main.GetILCode(out var code) < 0 || code.CreateBreakpoint((uint)at.Offset, out var breakpoint) < 0) return null;
        breakpoint.Activate(1);
        return breakpoint;
    }

    /// <summary>Detach (the default after attach) or terminate (after launch). The process is
    /// never left stopped: the engine's detach resumes it whatever fails.</summary>
    public void Disconnect(bool? terminateDebuggee)
    {
        if (debuggee.Engine is null && _runningUndebugged)
        {
            StopUndebugged(terminateDebuggee, wait: true);
            return;
        }
        if (debuggee.Engine is not { } engine) return;
        bool terminate = terminateDebuggee ?? _launched is not null;
        ForgetControlState(engine);
        try
        {
            if (terminate && !engine.HasExited) TerminateDebuggee(engine).Wait(ProcessSignals.Grace * 2);
            else engine.Detach();
        }
        finally { debuggee.Engine = null; }
    }

    /// <summary>Answered at once: SIGTERM now, SIGKILL after a short grace; `exited` and
    /// `terminated` follow when the process has gone.</summary>
    public void Terminate()
    {
        if (debuggee.Engine is null && _runningUndebugged)
        {
            StopUndebugged(null, wait: false);
            return;
        }
        DebuggerEngine engine = debuggee.RequireEngine();
        ForgetControlState(engine);
        _ = TerminateDebuggee(engine);
    }

    private void ForgetControlState(DebuggerEngine engine)
    {
        try { engine.WhileStopped(() => { ForgetSteps(); return 0; }); }
        catch (Exception error) when (error is EngineException or System.Runtime.InteropServices.COMException)
        {
            ForgetSteps();  // the engine deactivates what these held anyway
        }
    }

    private void ForgetSteps()
    {
        _entryBreakpoint = null;
        forgetSteps();
    }

    /// <summary>Breakpoints, steppers and exception stops let go (its shutdown must not stop on
    /// them), the process running, then signalled.</summary>
    private Task TerminateDebuggee(DebuggerEngine engine)
    {
        try { engine.Release(); }
        catch (EngineException error) { debuggee.SendOutput("console", $"terminate: {error.Message}\n"); }
        return ProcessSignals.TerminateAsync(engine.ProcessId, _launched?.Waiter);
    }

    public void ProcessExited()
    {
        debuggee.Handles.Clear();
        Process? launched = _launched?.Waiter;
        Task.Run(() =>
        {
            if (launched is not null && launched.WaitForExit(60_000))
            {
                launched.WaitForExit(); // drains the redirected output before `exited`
                debuggee.Events.SendEvent("exited", new JsonObject { ["exitCode"] = launched.ExitCode });
            }
            SendTerminated();
        });
    }

    private void SendTerminated()
    {
        if (Interlocked.Exchange(ref _terminatedSent, 1) == 0)
            debuggee.Events.SendEvent("terminated", null);
    }

    /// <summary>noDebug: the program without the startup hook, no engine; its exit reported as a debuggee's.</summary>
    public void RunWithoutDebugging(LaunchRequest request)
    {
        if (_runningUndebugged) throw new DapException("already running a program");
        LaunchedProgram launched = ProcessLauncher.Start(request, text => debuggee.SendOutput("stdout", text),
            text => debuggee.SendOutput("stderr", text), withDebugger: false);
        _launched = launched;
        _runningUndebugged = true;
        _programPath = request.Program;
        debuggee.Events.SendEvent("process", new JsonObject
        {
            ["name"] = Path.GetFileName(_programPath), ["systemProcessId"] = launched.ProcessId,
            ["isLocalProcess"] = true, ["startMethod"] = "launch",
        });
        launched.Waiter.Exited += (_, _) => ReportUndebuggedExit();
        if (launched.Waiter.HasExited) ReportUndebuggedExit();
    }

    /// <summary>`exited` (with the code) and `terminated`, once, as after a debugged run.</summary>
    private void ReportUndebuggedExit()
    {
        if (Interlocked.Exchange(ref _undebuggedExitReported, 1) == 0) ProcessExited();
    }

    /// <summary>Disconnect (waits for the end, unless told to leave it running) or terminate
    /// (answered at once): SIGTERM, then SIGKILL after the grace.</summary>
    private void StopUndebugged(bool? terminateDebuggee, bool wait)
    {
        bool terminate = terminateDebuggee ?? true;
        if (!terminate || _launched is not { } launched || launched.Waiter.HasExited) return;
        Task ending = ProcessSignals.TerminateAsync(launched.ProcessId, launched.Waiter);
        if (wait) ending.Wait(ProcessSignals.Grace * 2);
    }
}
