// The protocol layer with a handler standing in for the session: requests are handled one
// at a time, a handler that overruns its budget is answered with an error, and the next
// request still waits until that handler has finished.
using System.Text;
using System.Text.Json.Nodes;
using PyInspect.Debugger.Protocol;
using Xunit;

namespace PyInspect.Tests;

public sealed class DapServerTests
{
    /// <summary>Records when each request ran; "slow" takes longer than the server's budget.</summary>
    private sealed class RecordingHandler(TimeSpan slowFor) : IDapHandler
    {
        private int _running;
        public int MostAtOnce;
        public readonly List<(string Command, DateTime Start, DateTime End)> Runs = [];

        public JsonNode? Handle(string command, JsonObject arguments)
        {
            int now = Interlocked.Increment(ref _running);
            lock (Runs) MostAtOnce = Math.Max(MostAtOnce, now);
            DateTime start = DateTime.UtcNow;
            if (command == "slow") Thread.Sleep(slowFor);
            if (command == "fails") { Interlocked.Decrement(ref _running); throw new DapException("no such thing"); }
            Interlocked.Decrement(ref _running);
            lock (Runs) Runs.Add((command, start, DateTime.UtcNow));
            return new JsonObject { ["ran"] = command };
        }
    }

    private static byte[] Frame(params string[] commands)
    {
        var bytes = new List<byte>();
        int seq = 1;
        foreach (string command in commands)
        {
            byte[] body = Encoding.UTF8.GetBytes(new JsonObject { ["seq"] = seq++, ["type"] = "request", ["command"] = command }.ToJsonString());
            bytes.AddRange(Encoding.ASCII.GetBytes($"Content-Length: {body.Length}\r\n\r\n"));
            bytes.AddRange(body);
        }
        return [.. bytes];
    }

    private static List<JsonObject> Messages(byte[] output)
    {
        var messages = new List<JsonObject>();
        var reader = new DapStream(new MemoryStream(output), Stream.Null);
        while (reader.ReadMessage() is { } text) messages.Add(JsonNode.Parse(text)!.AsObject());
        return messages;
    }

    private static (List<JsonObject> Responses, RecordingHandler Handler) Serve(TimeSpan budget, TimeSpan slowFor, params string[] commands)
    {
        var output = new MemoryStream();
        var handler = new RecordingHandler(slowFor);
        var server = new DapServer(new MemoryStream(Frame(commands)), output, null, budget);
        server.Run(handler);
        return (Messages(output.ToArray()).Where(m => (string?)m["type"] == "response").ToList(), handler);
    }

    [Fact]
    public void A_handler_that_overruns_its_budget_is_answered_with_a_timeout_error()
    {
        var (responses, _) = Serve(TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(600), "slow", "disconnect");
        JsonObject slow = responses.Single(r => (string?)r["command"] == "slow");
        Assert.False((bool)slow["success"]!);
        Assert.Contains("did not finish within", (string?)slow["message"]);
    }

    [Fact]
    public void The_next_request_starts_only_after_the_overrunning_one_finished()
    {
        // A budget "fast" meets even when the thread pool starts it late on a loaded machine; "slow" overruns it threefold.
        var (responses, handler) = Serve(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(3), "slow", "fast", "disconnect");
        Assert.Equal(1, handler.MostAtOnce);
        var slow = handler.Runs.Single(r => r.Command == "slow");
        var fast = handler.Runs.Single(r => r.Command == "fast");
        Assert.True(fast.Start >= slow.End, $"'fast' started at {fast.Start:HH:mm:ss.fff}, before 'slow' ended at {slow.End:HH:mm:ss.fff}");
        Assert.True((bool)responses.Single(r => (string?)r["command"] == "fast")["success"]!);
    }

    [Fact]
    public void Responses_follow_request_order_with_their_request_seq()
    {
        var (responses, _) = Serve(TimeSpan.FromSeconds(5), TimeSpan.Zero, "a", "fails", "b", "disconnect");
        Assert.Equal(["a", "fails", "b", "disconnect"], responses.Select(r => (string)r["command"]!));
        Assert.Equal([1L, 2L, 3L, 4L], responses.Select(r => (long)r["request_seq"]!));
        JsonObject failed = responses[1];
        Assert.False((bool)failed["success"]!);
        Assert.Equal("no such thing", (string?)failed["message"]);
    }

    [Fact]
    public void Input_that_ends_without_disconnect_still_disconnects_the_session()
    {
        var (_, handler) = Serve(TimeSpan.FromSeconds(5), TimeSpan.Zero, "a");
        Assert.Equal(["a", "disconnect"], handler.Runs.Select(r => r.Command));
    }
}
