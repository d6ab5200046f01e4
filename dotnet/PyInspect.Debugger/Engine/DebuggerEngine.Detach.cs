// Letting go of a process. ICorDebug refuses Detach while any breakpoint or stepper is
// active (CORDBG_E_DETACH_FAILED_OUTSTANDING_*), and a refused Detach after Stop leaves
// the process stopped for good. So: stop, disarm everything the runtime knows of (our
// breakpoints, internal ones, steppers of any request), let queued callbacks drain, and
// detach; whatever fails on the way, the process is continued, never left stopped.
using System.Runtime.InteropServices;

namespace PyInspect.Debugger.Engine;

public sealed partial class DebuggerEngine
{
    private const int DetachAttempts = 5;
    private bool _detaching;

    /// <summary>True while Detach runs: callbacks then continue at once instead of stopping.</summary>
    private bool IsDetaching { get { lock (_gate) return _detaching; } }

    /// <summary>Detach, leaving the process running, whether it runs or is stopped now.</summary>
    /// <exception cref="EngineException">Detach failed; the process was continued anyway.</exception>
    public void Detach()
    {
        lock (_control)
        {
            if (HasExited || _detached || _process is null) return;
            ICorDebugProcess process = _process;
            lock (_gate) _detaching = true;
            int hr = 0;
            for (int attempt = 0; attempt < DetachAttempts; attempt++)
            {
                if (!IsStopped)
                {
                    hr = process.Stop(uint.MaxValue);
                    if (hr < 0) break;
                    SetStopped(true);
                }
                DisarmAll(process);
                if (process.HasQueuedCallbacks(0, out int queued) >= 0 && queued != 0)
                {
                    // Queued events must be dispatched (they continue at once while detaching).
                    SetStopped(false);
                    process.Continue(0);
                    Thread.Sleep(20);
                    continue;
                }
                hr = process.Detach();
                if (hr >= 0)
                {
                    SetStopped(false);
                    lock (_gate) { _detached = true; _detaching = false; }
                    return;
                }
            }
            lock (_gate) _detaching = false;
            if (IsStopped)
            {
                SetStopped(false);
                process.Continue(0);
            }
            EngineException.ThrowIfFailed(hr, "ICorDebugProcess.Detach");
        }
    }

    /// <summary>Deactivate every stepper of the process (any request's, any thread's): called
    /// at every stop, so no step started before it can end a later run.</summary>
    public void CancelSteppers()
    {
        if (_process is { } process && !HasExited && !_detached) ForEachDomain(process, domain => DeactivateSteppers(domain));
    }

    /// <summary>Deactivate every breakpoint and stepper in every app domain of the process.</summary>
    private static void DisarmAll(ICorDebugProcess process) => ForEachDomain(process, domain =>
    {
        DeactivateBreakpoints(domain);
        DeactivateSteppers(domain);
    });

    private static unsafe void ForEachDomain(ICorDebugProcess process, Action<ICorDebugAppDomain> action)
    {
        if (process.EnumerateAppDomains(out nint domainsPointer) < 0) return;
        var domains = Wrap<ICorDebugAppDomainEnum>(domainsPointer);
        Marshal.Release(domainsPointer);
        nint domain;
        while (domains.Next(1, &domain, out uint fetched) == 0 && fetched == 1)
        {
            action(Wrap<ICorDebugAppDomain>(domain));
            Marshal.Release(domain);
        }
    }

    private static unsafe void DeactivateBreakpoints(ICorDebugAppDomain domain)
    {
        if (domain.EnumerateBreakpoints(out nint pointer) < 0) return;
        var each = Wrap<ICorDebugBreakpointEnum>(pointer);
        Marshal.Release(pointer);
        nint item;
        while (each.Next(1, &item, out uint fetched) == 0 && fetched == 1)
        {
            Wrap<ICorDebugBreakpoint>(item).Activate(0);
            Marshal.Release(item);
        }
    }

    private static unsafe void DeactivateSteppers(ICorDebugAppDomain domain)
    {
        if (domain.EnumerateSteppers(out nint pointer) < 0) return;
        var each = Wrap<ICorDebugStepperEnum>(pointer);
        Marshal.Release(pointer);
        nint item;
        while (each.Next(1, &item, out uint fetched) == 0 && fetched == 1)
        {
            Wrap<ICorDebugStepper>(item).Deactivate();
            Marshal.Release(item);
        }
    }
}
