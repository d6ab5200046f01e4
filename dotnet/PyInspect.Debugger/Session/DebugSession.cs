// DAP requests mapped to engine calls (part 1, priority 1: attach, threads, pause,
// continue, disconnect). Runs on the protocol's request thread; engine events arrive on
// ICorDebug's callback thread and leave as DAP events through the thread-safe sink.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public sealed class DebugSession(IEventSink events) : IDapHandler
{
    private DebuggerEngine? _engine;
    private bool _launched;
    private bool _terminatedSent;

    public JsonNode? Handle(string command, JsonObject arguments)
    {
        try
        {
            return command switch
            {
                "initialize" => Initialize(),
                "attach" => Attach(arguments),
                "configurationDone" => null,
                "threads" => Threads(),
                "pause" => Pause(),
                "continue" => Continue(),
                "disconnect" => Disconnect(arguments),
                "terminate" => Terminate(),
                _ => throw new DapException($"unsupported command '{command}'"),
            };
        }
        catch (EngineException error)
        {
            throw new DapException(error.Message);
        }
    }

    private JsonNode Initialize()
    {
        events.SendEvent("initialized", null);
        return new JsonObject
        {
            ["supportsConfigurationDoneRequest"] = true,
            ["supportsTerminateRequest"] = true,
        };
    }

    private JsonNode? Attach(JsonObject arguments)
    {
        if (_engine is not null) throw new DapException("already debugging a process");
        int processId = arguments["processId"]?.GetValue<int>()
            ?? throw new DapException("attach needs 'processId'");
        var engine = DebuggerEngine.Attach(processId);
        engine.ThreadStarted += id => SendThreadEvent("started", id);
        engine.ThreadExited += id => SendThreadEvent("exited", id);
        engine.Stopped += id => SendStopped("pause", id);
        engine.ProcessExited += OnProcessExited;
        _engine = engine;
        return null;
    }

    private JsonNode Threads()
    {
        var threads = new JsonArray();
        foreach (uint id in RequireEngine().GetThreadIds())
            threads.Add(new JsonObject { ["id"] = (long)id, ["name"] = $"Thread #{id}" });
        return new JsonObject { ["threads"] = threads };
    }

    private JsonNode? Pause()
    {
        DebuggerEngine engine = RequireEngine();
        if (engine.IsStopped) return null;
        engine.Pause();
        IReadOnlyList<uint> threads = engine.GetThreadIds();
        SendStopped("pause", threads.Count > 0 ? threads[0] : 0);
        return null;
    }

    private JsonNode Continue()
    {
        DebuggerEngine engine = RequireEngine();
        if (!engine.IsStopped) throw new DapException("the process is running");
        engine.Continue();
        return new JsonObject { ["allThreadsContinued"] = true };
    }

    private JsonNode? Disconnect(JsonObject arguments)
    {
        if (_engine is null) return null;
        bool terminate = arguments["terminateDebuggee"]?.GetValue<bool>() ?? _launched;
        if (terminate && !_engine.HasExited) _engine.Terminate();
        else _engine.Detach();
        _engine = null;
        return null;
    }

    private JsonNode? Terminate()
    {
        RequireEngine().Terminate();
        return null;
    }

    private DebuggerEngine RequireEngine() =>
        _engine ?? throw new DapException("no process: send 'attach' first");

    private void SendThreadEvent(string reason, uint threadId) =>
        events.SendEvent("thread", new JsonObject { ["reason"] = reason, ["threadId"] = (long)threadId });

    private void SendStopped(string reason, uint threadId) =>
        events.SendEvent("stopped", new JsonObject
        {
            ["reason"] = reason,
            ["threadId"] = (long)threadId,
            ["allThreadsStopped"] = true,
        });

    private void OnProcessExited()
    {
        events.SendEvent("exited", new JsonObject { ["exitCode"] = 0 });
        if (_terminatedSent) return;
        _terminatedSent = true;
        events.SendEvent("terminated", null);
    }
}
