// pyinspect's recorder: `dotnet PyInspect.Trace.dll --pid N [--allocations] [--gc] [--randomized-sampling]
//   [--max-seconds S] [--max-types T] [--max-stacks K] [--file PATH] [--socket PATH]`
// Lines on stdout, one JSON object each: {"event":"started",...} once the session runs,
// {"event":"progress",...} every second, then {"event":"result",...} (the answer) or
// {"event":"error","code","message"}. The recording stops on a "stop" line or the end of
// stdin, after max-seconds, or when the target exits (the stream ends).
using Microsoft.Diagnostics.NETCore.Client;
using PyInspect.Trace.Analysis;
using PyInspect.Trace.Recording;
using PyInspect.Trace.Records;

namespace PyInspect.Trace;

public static class Program
{
    public static int Main(string[] args)
    {
        var options = RecorderOptions.Parse(args);
        if (options.Error is not null) return Fail("INVALID_PARAMETER", options.Error);
        string file = options.File ?? Path.Combine(Path.GetTempPath(), $"pyinspect-trace-{options.Pid}-{Environment.ProcessId}.nettrace");
        TraceSession session;
        try
        {
            session = TraceSession.Start(options.Pid, options.Socket, options.Allocations, options.Gc,
                options.RandomizedSampling, file);
        }
        catch (Exception ex) when (ex is ServerNotAvailableException or UnsupportedCommandException or TimeoutException
            or System.Net.Sockets.SocketException or IOException)
        {
            return Fail("NOT_DOTNET_PROCESS", $"process {options.Pid} has no .NET diagnostics channel: {ex.Message}");
        }
        try
        {
            Emit("started", new { options.Pid, File = file });
            bool exited = WaitForStop(session, options.MaxSeconds);
            double seconds = (DateTime.UtcNow - session.StartedUtc).TotalSeconds;
            session.Stop(TimeSpan.FromSeconds(60));
            session.Dispose();
            var window = new TraceReader.Window(options.Pid, seconds, exited,
                options.Allocations, options.Gc, options.MaxTypes, options.MaxStacks);
            Emit("result", TraceReader.Read(file, window));
            return 0;
        }
        catch (Exception ex)
        {
            return Fail("INTERNAL_ERROR", $"recording of process {options.Pid} failed: {ex.GetType().Name}: {ex.Message}");
        }
        finally
        {
            if (options.File is null) File.Delete(file);
        }
    }

    /// <summary>Blocks until a stop request, the time bound, or the end of the target's stream;
    /// true when the target went away first.</summary>
    private static bool WaitForStop(TraceSession session, double maxSeconds)
    {
        var stop = Task.Run(() =>
        {
            string? line;
            while ((line = Console.In.ReadLine()) is not null && line.Trim() != "stop") { }
        });
        var deadline = session.StartedUtc.AddSeconds(maxSeconds);
        while (!stop.IsCompleted && DateTime.UtcNow < deadline)
        {
            if (session.StreamEnded) return true;
            stop.Wait(TimeSpan.FromSeconds(1));
            Emit("progress", new { Seconds = Math.Round((DateTime.UtcNow - session.StartedUtc).TotalSeconds, 1), Bytes = session.BytesWritten });
        }
        return session.StreamEnded;
    }

    private static void Emit(string kind, object body)
    {
        Console.Out.WriteLine(TraceJson.Line(kind, body));
        Console.Out.Flush();
    }

    private static int Fail(string code, string message)
    {
        Emit("error", new { Code = code, Message = message });
        return 2;
    }
}
