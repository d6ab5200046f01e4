// One debugged process: attach, pause, continue, detach, terminate, managed threads.
// Callbacks arrive on ICorDebug's thread; state changes are serialised by one lock and the
// callback thread never waits on the request thread.
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

public sealed class DebuggerEngine : IDebugEventSink, IDisposable
{
    private readonly object _gate = new();     // short data updates, also taken by callbacks
    private readonly object _control = new();  // request-side Stop/Continue/Detach, never taken by callbacks
    private readonly ICorDebug _cordb;
    private readonly ManagedCallbacks _callbacks;
    private readonly HashSet<uint> _threadIds = [];
    private ICorDebugProcess? _process;
    private bool _stopped;
    private bool _exited;
    private bool _detached;

    /// <summary>A managed thread started (OS thread id).</summary>
    public event Action<uint>? ThreadStarted;
    /// <summary>A managed thread exited (OS thread id).</summary>
    public event Action<uint>? ThreadExited;
    /// <summary>The process stopped by itself (Debugger.Break), on the given thread.</summary>
    public event Action<uint>? Stopped;
    /// <summary>The debuggee exited.</summary>
    public event Action? ProcessExited;

    public int ProcessId { get; }
    public bool IsStopped { get { lock (_gate) return _stopped; } }
    private void SetStopped(bool value) { lock (_gate) _stopped = value; }
    public bool HasExited { get { lock (_gate) return _exited; } }

    private DebuggerEngine(int processId, ICorDebug cordb)
    {
        ProcessId = processId;
        _cordb = cordb;
        _callbacks = new ManagedCallbacks(this);
    }

    /// <summary>Attach to a running .NET process; it keeps running.</summary>
    public static DebuggerEngine Attach(int processId)
    {
        var engine = new DebuggerEngine(processId, CordbFactory.Create(processId));
        engine.Start();
        return engine;
    }

    private void Start()
    {
        // SetManagedHandler stores the pointer as ICorDebugManagedCallback* without a
        // QueryInterface: hand it that interface's vtable, not the IUnknown one.
        nint unknown = CordbFactory.ComWrappers.GetOrCreateComInterfaceForObject(_callbacks, CreateComInterfaceFlags.None);
        Guid iid = typeof(ICorDebugManagedCallback).GUID;
        EngineException.ThrowIfFailed(Marshal.QueryInterface(unknown, in iid, out nint callback), "QueryInterface(ICorDebugManagedCallback)");
        Marshal.Release(unknown);
        try { EngineException.ThrowIfFailed(_cordb.SetManagedHandler(callback), "ICorDebug.SetManagedHandler"); }
        finally { Marshal.Release(callback); }
        EngineException.ThrowIfFailed(_cordb.DebugActiveProcess((uint)ProcessId, 0, out nint process), "ICorDebug.DebugActiveProcess");
        lock (_gate) _process ??= Wrap<ICorDebugProcess>(process);
        Marshal.Release(process);
    }

    /// <summary>Stop every managed thread (synchronous).</summary>
    public void Pause()
    {
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            if (IsStopped) return;
            EngineException.ThrowIfFailed(process.Stop(uint.MaxValue), "ICorDebugProcess.Stop");
            SetStopped(true);
        }
    }

    public void Continue()
    {
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            if (!IsStopped) return;
            SetStopped(false);
            EngineException.ThrowIfFailed(process.Continue(0), "ICorDebugProcess.Continue");
        }
    }

    /// <summary>Detach, leaving the process running. Stops it first: detach is only legal while stopped.</summary>
    public void Detach()
    {
        lock (_control)
        {
            if (HasExited || _detached || _process is null) return;
            if (!IsStopped) EngineException.ThrowIfFailed(_process.Stop(uint.MaxValue), "ICorDebugProcess.Stop");
            SetStopped(false);
            _detached = true;
            EngineException.ThrowIfFailed(_process.Detach(), "ICorDebugProcess.Detach");
        }
    }

    public void Terminate(uint exitCode = 0)
    {
        lock (_control)
        {
            if (HasExited || _detached || _process is null) return;
            _process.Terminate(exitCode);
        }
    }

    /// <summary>OS thread ids of the managed threads, from the process itself while stopped.</summary>
    public IReadOnlyList<uint> GetThreadIds()
    {
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            if (!IsStopped) lock (_gate) return [.. _threadIds.Order()];
            return EnumerateThreadIds(process);
        }
    }

    private static unsafe List<uint> EnumerateThreadIds(ICorDebugProcess process)
    {
        EngineException.ThrowIfFailed(process.EnumerateThreads(out nint enumPtr), "EnumerateThreads");
        var threadEnum = Wrap<ICorDebugThreadEnum>(enumPtr);
        Marshal.Release(enumPtr);
        var ids = new List<uint>();
        nint thread;
        while (threadEnum.Next(1, &thread, out uint fetched) == 0 && fetched == 1)
        {
            ids.Add(ThreadId(thread));
            Marshal.Release(thread);
        }
        ids.Sort();
        return ids;
    }

    private ICorDebugProcess RequireLive()
    {
        if (HasExited) throw new EngineException("the debuggee has exited");
        if (_detached || _process is null) throw new EngineException("not attached to a process");
        return _process;
    }

    internal static T Wrap<T>(nint pointer) where T : class =>
        (T)CordbFactory.ComWrappers.GetOrCreateObjectForComInstance(pointer, CreateObjectFlags.None);

    private static uint ThreadId(nint thread)
    {
        Wrap<ICorDebugThread>(thread).GetID(out uint id);
        return id;
    }

    void IDebugEventSink.ContinueAfterEvent(nint controller)
    {
        Wrap<ICorDebugController>(controller).Continue(0);
    }

    void IDebugEventSink.OnThreadCreated(nint thread)
    {
        uint id = ThreadId(thread);
        lock (_gate) _threadIds.Add(id);
        ThreadStarted?.Invoke(id);
    }

    void IDebugEventSink.OnThreadExited(nint thread)
    {
        uint id = ThreadId(thread);
        lock (_gate) _threadIds.Remove(id);
        ThreadExited?.Invoke(id);
    }

    void IDebugEventSink.OnBreak(nint thread)
    {
        uint id = ThreadId(thread);
        lock (_gate) _stopped = true;
        Stopped?.Invoke(id);
    }

    void IDebugEventSink.OnProcessExited()
    {
        lock (_gate) { _exited = true; _stopped = false; }
        ProcessExited?.Invoke();
    }

    public void Dispose()
    {
        try { Detach(); } catch (EngineException) { }
    }
}
