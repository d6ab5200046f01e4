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
        _stepFilter.Configure(arguments);
        _breakpoints.Map = SourceFileMap.From(arguments["sourceFileMap"]);
        if (NoDebugRequested(arguments)) return RunWithoutDebugging(request, program);
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
        int processId = ProcessIdArgument(arguments);
        _stepFilter.Configure(arguments);
        _breakpoints.Map = SourceFileMap.From(arguments["sourceFileMap"]);
        if (!File.Exists($"/proc/{processId}/maps")) throw new DapException($"no process with id {processId}");
        DebuggerEngine engine = DebuggerEngine.Attach(processId, this);
        _engine = engine;
        // One brief stop while attaching: the threads that already run, and their names.
        engine.WhileStopped(() => { RememberThreadNames(engine); return 0; });
        _configured = true;
        events.SendEvent("process", new JsonObject
        {
            ["name"] = ProcessName(processId), ["systemProcessId"] = processId,
            ["isLocalProcess"] = true, ["startMethod"] = "attach",
        });
        return null;
    }

    private static string ProcessName(int processId)
    {
        try { return Process.GetProcessById(processId).ProcessName; }
        catch (Exception error) when (error is ArgumentException or InvalidOperationException) { return $"process {processId}"; }
    }

    /// <summary>A number, or a string holding one: VS Code's `${command:pickProcess}` sends a string.</summary>
    private static int ProcessIdArgument(JsonObject arguments)
    {
        JsonNode given = arguments["processId"] ?? throw new DapException("attach needs 'processId'");
        if (given is JsonValue value && value.TryGetValue(out int number)) return number;
        if (given is JsonValue text && text.TryGetValue(out string? digits)
            && int.TryParse(digits.Trim(), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int parsed))
            return parsed;
        throw new DapException($"'processId' must be a process id (a number, or a string of digits), not {given.ToJsonString()}");
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

    /// <summary>Detach (the default after attach) or terminate (after launch). The process is
    /// never left stopped: the engine's detach resumes it whatever fails.</summary>
    private JsonNode? Disconnect(JsonObject arguments)
    {
        if (_engine is null && _runningUndebugged) return StopUndebugged(arguments, wait: true);
        if (_engine is not { } engine) return null;
        bool terminate = arguments["terminateDebuggee"]?.GetValue<bool>() ?? _launched is not null;
        ForgetControlState(engine);
        try
        {
            if (terminate && !engine.HasExited) TerminateDebuggee(engine).Wait(ProcessSignals.Grace * 2);
            else engine.Detach();
        }
        finally { _engine = null; }
        return null;
    }

    /// <summary>Answered at once: SIGTERM now, SIGKILL after a short grace; `exited` and
    /// `terminated` follow when the process has gone.</summary>
    private JsonNode? Terminate()
    {
        if (_engine is null && _runningUndebugged) return StopUndebugged(new JsonObject(), wait: false);
        DebuggerEngine engine = RequireEngine();
        ForgetControlState(engine);
        _ = TerminateDebuggee(engine);
        return null;
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
        _handles.Clear();
        _activeStepper = null;
        _entryBreakpoint = null;
        EndAsyncStep();
        EndAsyncStepOut();
    }

    /// <summary>Breakpoints, steppers and exception stops let go (its shutdown must not stop on
    /// them), the process running, then signalled.</summary>
    private Task TerminateDebuggee(DebuggerEngine engine)
    {
        try { engine.Release(); }
        catch (EngineException error) { SendOutput("console", $"terminate: {error.Message}\n"); }
        return ProcessSignals.TerminateAsync(engine.ProcessId, _launched?.Waiter);
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
