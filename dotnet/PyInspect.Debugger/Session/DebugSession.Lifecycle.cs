// launch / attach / configurationDone / disconnect / terminate, and the process's exit.
using System.Diagnostics;
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    private static readonly TimeSpan LaunchTimeout = TimeSpan.FromSeconds(20);
    private LaunchedProgram? _launched;
    private string? _programPath;
    private bool _stopAtEntry;
    private bool _configured;
    private ICorDebugFunctionBreakpoint? _entryBreakpoint;
    private int _terminatedSent;

    private JsonNode? Launch(JsonObject arguments)
    {
        if (_engine is not null) throw new DapException("already debugging a process");
        string program = arguments["program"]?.GetValue<string>() ?? throw new DapException("launch needs 'program'");
        var request = new LaunchRequest(
            program,
            arguments["args"]?.AsArray().Select(a => a!.GetValue<string>()).ToList() ?? [],
            arguments["cwd"]?.GetValue<string>(),
            arguments["env"]?.AsObject().ToDictionary(p => p.Key, p => p.Value?.ToString() ?? "") ?? []);
        _stopAtEntry = arguments["stopAtEntry"]?.GetValue<bool>() ?? false;
        LaunchedProgram launched = ProcessLauncher.Start(request, text => SendOutput("stdout", text), text => SendOutput("stderr", text));
        _launched = launched;
        _programPath = Path.GetFullPath(program, request.Cwd ?? Environment.CurrentDirectory);
        try
        {
            ProcessLauncher.WaitForHook(launched, LaunchTimeout);
            _engine = DebuggerEngine.AttachLaunched(launched.ProcessId, this, LaunchTimeout);
        }
        catch
        {
            try { launched.Waiter.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
            _launched = null;
            throw;
        }
        events.SendEvent("process", new JsonObject
        {
            ["name"] = Path.GetFileName(_programPath), ["systemProcessId"] = launched.ProcessId,
            ["isLocalProcess"] = true, ["startMethod"] = "launch",
        });
        return null;
    }

    private JsonNode? Attach(JsonObject arguments)
    {
        if (_engine is not null) throw new DapException("already debugging a process");
        int processId = RequiredInt(arguments, "processId");
        if (!File.Exists($"/proc/{processId}/maps")) throw new DapException($"no process with id {processId}");
        DebuggerEngine engine = DebuggerEngine.Attach(processId, this);
        _engine = engine;
        // One brief stop while attaching: the threads that already run, and their names.
        engine.WhileStopped(() => { RememberThreadNames(engine); return 0; });
        _configured = true;
        return null;
    }

    /// <summary>After launch: the debuggee is held before Main; breakpoints are bound; let it run.</summary>
    private JsonNode? ConfigurationDone()
    {
        if (_engine is null || _configured) return null;
        _configured = true;
        if (_stopAtEntry) _entryBreakpoint = CreateEntryBreakpoint();
        _engine.Continue();
        return null;
    }

    private ICorDebugFunctionBreakpoint? CreateEntryBreakpoint()
    {
        if (_programPath is null || _modules.Find(_programPath) is not { } program) return null;
        int entry = ModuleMetadata.Open(program.Path).GetEntryPointToken();
        if (entry == 0 || program.Module.GetFunctionFromToken(entry, out var main) < 0) return null;
        if (main.GetILCode(out var code) < 0 || code.CreateBreakpoint(0, out var breakpoint) < 0) return null;
        breakpoint.Activate(1);
        return breakpoint;
    }

    private JsonNode? Disconnect(JsonObject arguments)
    {
        if (_engine is null) return null;
        bool terminate = arguments["terminateDebuggee"]?.GetValue<bool>() ?? _launched is not null;
        _handles.Clear();
        if (terminate && !_engine.HasExited) KillDebuggee();
        else _engine.Detach();
        _engine = null;
        return null;
    }

    private JsonNode? Terminate()
    {
        RequireEngine();
        KillDebuggee();
        return null;
    }

    /// <summary>Terminate through ICorDebug; a launched process that lingers is killed.</summary>
    private void KillDebuggee()
    {
        try { _engine?.Terminate(); }
        catch (EngineException) { }
        if (_launched?.Waiter is { } waiter && !waiter.WaitForExit(3000))
            try { waiter.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
    }

    void IEngineListener.ProcessExited()
    {
        _handles.Clear();
        Process? launched = _launched?.Waiter;
        Task.Run(() =>
        {
            if (launched is not null && launched.WaitForExit(60_000))
            {
                launched.WaitForExit(); // drains the redirected output before `exited`
                events.SendEvent("exited", new JsonObject { ["exitCode"] = launched.ExitCode });
            }
            SendTerminated();
        });
    }

    private void SendTerminated()
    {
        if (Interlocked.Exchange(ref _terminatedSent, 1) == 0)
            events.SendEvent("terminated", null);
    }
}
