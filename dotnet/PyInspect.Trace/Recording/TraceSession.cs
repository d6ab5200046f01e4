using System.Runtime.InteropServices;
using Microsoft.Diagnostics.NETCore.Client;
using PyInspect.Trace.Records;

namespace PyInspect.Trace.Recording;

/// <summary>One EventPipe session on one process, its stream copied to a .nettrace file on
/// a background thread until Stop (or until the target exits and the stream ends).</summary>
public sealed class TraceSession : IDisposable
{
    private readonly EventPipeSession _session;
    private readonly Task _copy;
    private readonly FileStream _file;
    private int _stopped;

    public string Path { get; }
    public DateTime StartedUtc { get; } = DateTime.UtcNow;
    public bool StreamEnded => _copy.IsCompleted;
    public long BytesWritten => _file.CanSeek ? SafeLength() : 0;

    private TraceSession(EventPipeSession session, string path)
    {
        _session = session;
        Path = path;
        _file = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.Read);
        _copy = Task.Factory.StartNew(Copy, TaskCreationOptions.LongRunning);
    }

    /// <summary>On a thread of its own at the lowest CPU priority: the program keeps the cores
    /// (the runtime buffers the events meanwhile, up to the session's buffer), and the
    /// reading afterwards runs at normal priority.</summary>
    private void Copy()
    {
        LowerThisThreadsPriority();
        _session.EventStream.CopyTo(_file, 1 << 20);
    }

    private static void LowerThisThreadsPriority()
    {
        try { _ = setpriority(0 /* PRIO_PROCESS: on Linux, one thread by its id */, gettid(), 19); }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException) { /* not Linux: as is */ }
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int setpriority(int which, int who, int priority);

    [DllImport("libc")]
    private static extern int gettid();

    /// <summary>Connects to pid's diagnostics socket (at <paramref name="socket"/> when given:
    /// a process in a container listens in its own /tmp, named by its pid inside, which
    /// DiagnosticsClient(pid) would look for in ours); a process with none is not a .NET
    /// process (or has diagnostics disabled).</summary>
    public static TraceSession Start(int pid, string? socket, bool allocations, bool gc, bool randomizedSampling, string path)
    {
        var client = socket is null
            ? new DiagnosticsClient(pid)
            : DiagnosticsClientConnector.FromDiagnosticPort(socket + ",connect", CancellationToken.None)
                .GetAwaiter().GetResult().Instance;
        var providers = TraceProviders.For(allocations, gc, randomizedSampling);
        var session = client.StartEventPipeSession(providers, requestRundown: allocations, circularBufferMB: 256);
        return new TraceSession(session, path);
    }

    /// <summary>Ends the session (the runtime then writes the rundown) and waits for the
    /// file to hold everything; a target that already exited just ends the stream.</summary>
    public void Stop(TimeSpan wait)
    {
        if (Interlocked.Exchange(ref _stopped, 1) == 0 && !_copy.IsCompleted)
        {
            try { _session.Stop(); }
            catch (Exception) { /* the target exited: the stream ends by itself */ }
        }
        try { _copy.Wait(wait); }
        catch (AggregateException) { /* a broken stream still leaves a readable prefix */ }
        _file.Flush();
    }

    public void Dispose()
    {
        _session.Dispose();
        if (_copy.IsCompleted) _file.Dispose();
    }

    private long SafeLength()
    {
        try { return _file.Length; } catch (ObjectDisposedException) { return 0; }
    }
}
