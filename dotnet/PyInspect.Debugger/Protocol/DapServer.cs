using System.Text.Json;
using System.Text.Json.Nodes;

namespace PyInspect.Debugger.Protocol;

/// <summary>Reads requests, hands them to the session strictly one at a time, and answers
/// every one within a bounded time: a handler that overruns its budget gets an error
/// response at once and its late result is dropped, but the next request is not read until
/// that handler has finished, so no two handlers ever run together. Events raised while a request is in flight, by its
/// handler or by the debuggee's callbacks, are held until that response is written, so a
/// client always sees the response first (initialize before initialized, a continue's
/// response and `continued` before the next `stopped`).</summary>
public sealed class DapServer : IEventSink
{
    public static readonly TimeSpan DefaultBudget = TimeSpan.FromSeconds(30);

    private readonly DapStream _stream;
    private readonly TextWriter? _log;
    private readonly TimeSpan _budget;
    private readonly object _seqLock = new();
    // Events wait while a request is in flight; guarded by _seqLock like every write.
    private readonly List<JsonObject> _heldEvents = [];
    private bool _requestInFlight;
    private int _seq;

    public DapServer(Stream input, Stream output, TextWriter? log, TimeSpan? budget = null)
    {
        _stream = new DapStream(input, output);
        _log = log;
        _budget = budget ?? DefaultBudget;
    }

    /// <summary>Serves until the client disconnects or closes its end. When the input ends
    /// without a disconnect, the session still gets one, so an attached debuggee is
    /// detached and a launched one ended rather than left stopped.</summary>
    public int Run(IDapHandler handler)
    {
        while (_stream.ReadMessage() is { } text)
        {
            JsonObject? request = ParseRequest(text);
            if (request is null) continue;
            string command = request["command"]?.GetValue<string>() ?? "";
            Dispatch(handler, request, command);
            if (command == "disconnect")
            {
                _stream.Close();
                return 0;
            }
        }
        Log("input closed without disconnect: disconnecting the session");
        TryHandle(handler, "disconnect", new JsonObject());
        _stream.Close();
        return 0;
    }

    public void SendEvent(string eventName, JsonNode? body)
    {
        var message = new JsonObject { ["type"] = "event", ["event"] = eventName };
        if (body is not null) message["body"] = body;
        lock (_seqLock)
        {
            if (_requestInFlight) _heldEvents.Add(message);
            else Write(message);
        }
    }

    private void Dispatch(IDapHandler handler, JsonObject request, string command)
    {
        long requestSeq = ReadSeq(request["seq"]);
        JsonObject arguments = request["arguments"] as JsonObject ?? new JsonObject();
        lock (_seqLock) _requestInFlight = true;
        var work = Task.Run(() => handler.Handle(command, arguments));
        JsonObject response = NewResponse(requestSeq, command);
        bool finished = false;
        try
        {
            finished = work.Wait(_budget);
            if (!finished)
                Fail(response, $"'{command}' did not finish within {_budget.TotalSeconds:0} s");
            else if (work.Result is { } body)
                response["body"] = body;
        }
        catch (AggregateException error) when (error.InnerException is { } inner)
        {
            finished = true;
            Fail(response, inner is DapException ? inner.Message : $"{inner.GetType().Name}: {inner.Message}");
            if (inner is not DapException) Log(inner.ToString());
        }
        lock (_seqLock)
        {
            Write(response);
            foreach (JsonObject message in _heldEvents) Write(message);
            _heldEvents.Clear();
            _requestInFlight = false;
        }
        if (!finished) AwaitOverrun(work, command);
    }

    /// <summary>The overrunning handler has had its answer; the next request waits until it
    /// ends (its result, or its failure, is only logged).</summary>
    private void AwaitOverrun(Task<JsonNode?> work, string command)
    {
        Log($"'{command}' overran its budget: the next request waits until it finishes");
        try { work.Wait(); }
        catch (AggregateException error) { Log($"'{command}' failed after its timeout answer: {error.InnerException?.Message}"); }
        Log($"'{command}' finished after its timeout answer");
    }

    private static JsonObject NewResponse(long requestSeq, string command) => new()
    {
        ["type"] = "response", ["request_seq"] = requestSeq, ["success"] = true, ["command"] = command,
    };

    private static void Fail(JsonObject response, string message)
    {
        response["success"] = false;
        response["message"] = message;
        response["body"] = new JsonObject
        {
            ["error"] = new JsonObject { ["id"] = 1, ["format"] = message, ["showUser"] = false },
        };
    }

    private void TryHandle(IDapHandler handler, string command, JsonObject arguments)
    {
        try { Task.Run(() => handler.Handle(command, arguments)).Wait(_budget); }
        catch (Exception error) { Log($"{command} after input closed failed: {error.Message}"); }
    }

    private JsonObject? ParseRequest(string text)
    {
        try
        {
            if (JsonNode.Parse(text) is JsonObject message && message["type"]?.GetValue<string>() == "request")
                return message;
            Log($"ignored a message that is not a request: {Shorten(text)}");
        }
        catch (Exception error) when (error is JsonException or InvalidOperationException)
        {
            Log($"ignored malformed JSON: {Shorten(text)}");
        }
        return null;
    }

    /// <summary>Some clients send seq as a string; both forms are accepted.</summary>
    private static long ReadSeq(JsonNode? seq)
    {
        if (seq is JsonValue value)
        {
            if (value.TryGetValue(out long number)) return number;
            if (value.TryGetValue(out string? text) && long.TryParse(text, out long parsed)) return parsed;
        }
        return 0;
    }

    /// <summary>Callers hold _seqLock, so seq numbers follow wire order.</summary>
    private void Write(JsonObject message)
    {
        message["seq"] = ++_seq;
        _stream.WriteMessage(message);
    }

    private void Log(string line)
    {
        if (_log is null) return;
        lock (_log) { _log.WriteLine(line); _log.Flush(); }
    }

    private static string Shorten(string text) => text.Length <= 200 ? text : text[..200] + "...";
}
