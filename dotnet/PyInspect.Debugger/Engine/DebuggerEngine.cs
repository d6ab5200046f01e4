// One debugged process: attach, stop/continue, detach, terminate, managed threads, and
// the callbacks that stop it. Callbacks arrive on ICorDebug's thread; the engine marks
// itself stopped before asking the listener, so requests see a consistent state.
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

public sealed partial class DebuggerEngine : IDebugEventSink, IDisposable
{
    private readonly object _gate = new();     // short data updates, also taken by callbacks
    private readonly object _control = new();  // Stop/Continue/Detach/eval from requests and decisions, never taken by callbacks
    private readonly ICorDebug _cordb;
    private readonly ManagedCallbacks _callbacks;
    private readonly IEngineListener _listener;
    private readonly HashSet<uint> _threadIds = [];
    private readonly ManualResetEventSlim _launchHold = new(false);
    private readonly ManualResetEventSlim _firstThread = new(false);
    private readonly EngineRunState _run;
    private ICorDebugProcess? _process;
    private readonly System.Collections.Concurrent.BlockingCollection<Action> _decisions = [];

    public int ProcessId { get; }
    /// <summary>How the target sees the world: its pid inside its namespace is what ICorDebug
    /// calls it (its main thread's id), its root is where its module paths are reached.</summary>
    public TargetView View { get; }
    public bool IsStopped => _run.IsStopped;
    /// <summary>Stopped, or briefly stopped by WhileStopped: the process's state can be read.</summary>
    public bool IsSynchronized => _run.IsSynchronized;
    public bool HasExited => _run.HasExited;

    private DebuggerEngine(TargetView view, ICorDebug cordb, IEngineListener listener, bool holdAtLaunch)
    {
        ProcessId = view.ProcessId;
        View = view;
        TargetView.Current = view;
        _cordb = cordb;
        _listener = listener;
        _run = new EngineRunState(holdAtLaunch);
        _callbacks = new ManagedCallbacks(this);
        new Thread(DecideEvents) { IsBackground = true, Name = "stop decisions" }.Start();
    }

    /// <summary>Attach to a running .NET process; it keeps running. Returns once the attach's
    /// own events have told the modules already loaded (they come before the first thread's),
    /// so a breakpoint set right after attach binds at once.</summary>
    public static DebuggerEngine Attach(int processId, IEngineListener listener)
    {
        var view = TargetView.Of(processId);
        var engine = new DebuggerEngine(view, CordbFactory.Create(view), listener, holdAtLaunch: false);
        engine.Start();
        engine._firstThread.Wait(TimeSpan.FromSeconds(10));
        return engine;
    }

    /// <summary>
    /// Attach to a process we launched, held by our startup hook; returns once the hook's
    /// Debugger.Break() has stopped it before Main (every module loaded so far reported).
    /// </summary>
    public static DebuggerEngine AttachLaunched(int processId, IEngineListener listener, TimeSpan timeout)
    {
        var view = TargetView.Of(processId);
        var engine = new DebuggerEngine(view, CordbFactory.Create(view), listener, holdAtLaunch: true);
        engine.Start();
        if (!engine._launchHold.Wait(timeout))
            throw new EngineException($"the launched process did not stop before Main within {timeout.TotalSeconds:0} s");
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
        nint process = View.OtherMountNamespace ? MountNamespace.RunInside(View, AttachByInsidePid) : AttachByInsidePid();
        lock (_gate) _process ??= Wrap<ICorDebugProcess>(process);
        Marshal.Release(process);
    }

    private nint AttachByInsidePid()
    {
        EngineException.ThrowIfFailed(_cordb.DebugActiveProcess((uint)View.NamespacePid, 0, out nint process), "ICorDebug.DebugActiveProcess");
        return process;
    }

    /// <summary>Stop every managed thread (synchronous). False when it was already stopped.</summary>
    /// <remarks>A pause that arrives while an event is being decided is reported through
    /// IEngineListener.PausedInsteadOfContinuing once that decision would have continued.</remarks>
    public bool Pause()
    {
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            if (IsStopped)
            {
                // Stopped only while an event is being decided (a log point, a condition):
                // if that decision would continue, it stays stopped and reports the pause.
                _run.PauseWhileStopped();
                return false;
            }
            EngineException.ThrowIfFailed(process.Stop(uint.MaxValue), "ICorDebugProcess.Stop");
            _run.Paused();
            return true;
        }
    }

    public void Continue()
    {
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            if (!IsStopped) return;
            int owed = _run.Resuming();
            for (int i = 0; i < owed; i++) process.Continue(0);
            EngineException.ThrowIfFailed(process.Continue(0), "ICorDebugProcess.Continue");
        }
    }

    /// <summary>Run an action that needs a synchronised process, stopping it briefly if it runs.</summary>
    public T WhileStopped<T>(Func<T> action)
    {
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            if (IsStopped) return action();
            EngineException.ThrowIfFailed(process.Stop(uint.MaxValue), "ICorDebugProcess.Stop");
            _run.StoppedBriefly();
            try { return action(); }
            finally
            {
                _run.BriefStopEnded();
                process.Continue(0);
            }
        }
    }

    /// <summary>
    /// Detach, leaving the process running whatever fails on the way: stop it (detach is only
    /// legal while synchronized), deactivate every stepper and breakpoint (ICorDebug refuses to
    /// detach with any left, 0x80131C20/21), detach. A refusal lets the process run so queued
    /// callbacks drain (they are continued at once meanwhile), then tries again; if it never
    /// succeeds the process is resumed and the failure reported.
    /// </summary>
    public void Detach()
    {
        lock (_control)
        {
            if (HasExited || _run.IsDetached || _process is null) return;
            _run.BecomePassive();
            Exception? failure = null;
            for (int attempt = 0; attempt < 10 && !_run.IsDetached && !HasExited; attempt++)
            {
                try
                {
                    if (!IsStopped) EngineException.ThrowIfFailed(_process.Stop(uint.MaxValue), "ICorDebugProcess.Stop");
                    _run.Stopped();
                    CancelAllSteppers();
                    DeactivateAllBreakpoints();
                    EngineException.ThrowIfFailed(_process.Detach(), "ICorDebugProcess.Detach");
                    _run.Detached();
                    return;
                }
                catch (Exception error) when (error is EngineException or COMException or InvalidCastException)
                {
                    failure = error;
                }
                ResumeFully(_process);
                Thread.Sleep(50 * (attempt + 1));
            }
            if (!_run.IsDetached && !HasExited)
            {
                ResumeFully(_process);
                throw new EngineException($"detach failed, the process was left running: {failure?.Message}");
            }
        }
    }

    /// <summary>Continue until ICorDebug says the process runs (every Stop undone).</summary>
    private void ResumeFully(ICorDebugProcess process)
    {
        for (int i = 0; i < 8; i++)
        {
            if (process.IsRunning(out int running) < 0 || running != 0) break;
            if (process.Continue(0) < 0) break;
        }
        _run.Running();
    }

    /// <summary>Let go without detaching (the process is being terminated and its exit is
    /// still wanted): every stepper and breakpoint deactivated, later events continued at
    /// once, the process running.</summary>
    public void Release()
    {
        lock (_control)
        {
            if (HasExited || _run.IsDetached || _process is null) return;
            _run.BecomePassive();
            try
            {
                if (!IsStopped) EngineException.ThrowIfFailed(_process.Stop(uint.MaxValue), "ICorDebugProcess.Stop");
                _run.Stopped();
                CancelAllSteppers();
                DeactivateAllBreakpoints();
            }
            finally { ResumeFully(_process); }
        }
    }

    public void Terminate(uint exitCode = 0)
    {
        lock (_control)
        {
            if (HasExited || _run.IsDetached || _process is null) return;
            _process.Terminate(exitCode);
        }
    }

    /// <summary>OS thread ids of the managed threads: from the process itself while it is
    /// synchronized, else as the thread callbacks told them (a running process is never
    /// stopped just to list its threads).</summary>
    public IReadOnlyList<uint> GetThreadIds()
    {
        lock (_control)
        {
            ICorDebugProcess process = RequireLive();
            if (!IsSynchronized) lock (_gate) return [.. _threadIds.Order()];
            List<uint> ids = EnumerateThreadIds(process);
            lock (_gate)
            {
                _threadIds.Clear();
                _threadIds.UnionWith(ids);  // also covers threads whose attach-time events are still queued
            }
            return ids;
        }
    }

    /// <summary>The thread object for an OS thread id (process stopped), or null if unknown.</summary>
    public ICorDebugThread? GetThread(uint threadId)
    {
        ICorDebugProcess process = RequireLive();
        return process.GetThread(threadId, out ICorDebugThread thread) < 0 ? null : thread;
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
        if (_run.IsDetached || _process is null) throw new EngineException("not attached to a process");
        return _process;
    }

    internal static T Wrap<T>(nint pointer) where T : class =>
        (T)CordbFactory.ComWrappers.GetOrCreateObjectForComInstance(pointer, CreateObjectFlags.None);

    private static uint ThreadId(nint thread)
    {
        Wrap<ICorDebugThread>(thread).GetID(out uint id);
        return id;
    }

    /// <summary>
    /// Stay stopped if the listener says so; otherwise continue the event. The listener is
    /// asked on the engine's decision thread, never on ICorDebug's callback thread: deciding
    /// may run code in the debuggee (a breakpoint condition), whose completion arrives as a
    /// callback on that thread. Events are decided in the order they arrived.
    /// </summary>
    private void StopOrContinue(nint controller, Func<bool> listenerWantsStop)
    {
        var owner = Wrap<ICorDebugController>(controller);
        if (!_run.EventArrived())
        {
            owner.Continue(0);  // detaching or terminating: never decided
            return;
        }
        _decisions.Add(() =>
        {
            bool stop;
            try { stop = listenerWantsStop(); }
            catch (Exception error) { Console.Error.WriteLine($"listener failed: {error}"); stop = false; }
            lock (_control)
            {
                switch (_run.DecisionMade(stop))
                {
                    case DecisionOutcome.Continue:
                    case DecisionOutcome.ContinueEventOnly:
                        owner.Continue(0);
                        break;
                    case DecisionOutcome.ReportPause:
                        _listener.PausedInsteadOfContinuing();
                        break;
                }
            }
        });
    }

    private void DecideEvents()
    {
        foreach (Action decide in _decisions.GetConsumingEnumerable()) decide();
    }

    /// <summary>True (and the event continued) while a func-eval runs: breakpoints, steps and
    /// breaks reached by evaluated code or by other threads meanwhile are not stops.</summary>
    private bool PassOverDuringEval(nint controller)
    {
        lock (_gate) if (_evalWait is null) return false;
        Wrap<ICorDebugController>(controller).Continue(0);
        return true;
    }

    void IDebugEventSink.OnException(nint controller, nint thread, nint frame, uint offset, int eventType)
    {
        if (PassOverDuringEval(controller)) return;
        uint id = ThreadId(thread);
        ExceptionHandlerSite? handler = eventType == CatchHandlerFound && frame != 0 ? HandlerSite(frame, offset) : null;
        StopOrContinue(controller, () => _listener.ExceptionThrown(id, eventType, handler));
    }

    private const int CatchHandlerFound = 3;

    private static ExceptionHandlerSite? HandlerSite(nint framePointer, uint offset)
    {
        var frame = Wrap<ICorDebugFrame>(framePointer);
        if (frame.GetFunction(out var function) < 0 || function.GetToken(out int token) < 0 || function.GetModule(out var module) < 0)
            return null;
        return new ExceptionHandlerSite(ModuleName(module), token, offset);
    }

    void IDebugEventSink.ContinueAfterEvent(nint controller) => Wrap<ICorDebugController>(controller).Continue(0);

    void IDebugEventSink.OnThreadCreated(nint thread)
    {
        uint id = ThreadId(thread);
        lock (_gate) _threadIds.Add(id);
        _firstThread.Set();
        _listener.ThreadStarted(id);
    }

    void IDebugEventSink.OnThreadExited(nint thread)
    {
        uint id = ThreadId(thread);
        lock (_gate) _threadIds.Remove(id);
        _listener.ThreadExited(id);
    }

    void IDebugEventSink.OnBreak(nint controller, nint thread)
    {
        uint id = ThreadId(thread);
        if (_run.TakeLaunchHold())
        {
            _launchHold.Set();
            return;
        }
        if (PassOverDuringEval(controller)) return;
        StopOrContinue(controller, () => _listener.BreakRequested(id));
    }

    void IDebugEventSink.OnBreakpoint(nint controller, nint thread, nint breakpoint)
    {
        if (PassOverDuringEval(controller)) return;
        uint id = ThreadId(thread);
        var functionBreakpoint = Wrap<ICorDebugFunctionBreakpoint>(breakpoint);
        StopOrContinue(controller, () => _listener.BreakpointHit(id, functionBreakpoint));
    }

    void IDebugEventSink.OnStepComplete(nint controller, nint thread, nint stepper, CorDebugStepReason reason)
    {
        if (PassOverDuringEval(controller)) return;
        uint id = ThreadId(thread);
        var identity = StepperIdentity.Of(stepper);
        StopOrContinue(controller, () => _listener.StepCompleted(id, identity, reason));
    }

    void IDebugEventSink.OnLoadModule(nint controller, nint module)
    {
        RememberAppDomain(controller);
        try
        {
            var wrapped = Wrap<ICorDebugModule>(module);
            _listener.ModuleLoaded(wrapped, ModuleName(wrapped));
        }
        catch (Exception error) { Console.Error.WriteLine($"module load handling failed: {error}"); }
        Wrap<ICorDebugController>(controller).Continue(0);
    }

    public static unsafe string ModuleName(ICorDebugModule module)
    {
        char* buffer = stackalloc char[1024];
        if (module.GetName(1024, out uint length, buffer) < 0 || length == 0) return "";
        string name = new string(buffer, 0, (int)Math.Min(length, 1024u)).TrimEnd('\0');
        return TargetView.Current is { } view ? view.Reach(name) : name;
    }

    void IDebugEventSink.OnProcessExited()
    {
        EvalWait? wait;
        _run.Exited();
        lock (_gate) wait = _evalWait;
        wait?.Done.Set();
        _launchHold.Set();
        _listener.ProcessExited();
    }

    public void Dispose()
    {
        _decisions.CompleteAdding();
        try { Detach(); } catch (EngineException) { }
    }
}
