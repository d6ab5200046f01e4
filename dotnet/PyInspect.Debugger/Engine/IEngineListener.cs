namespace PyInspect.Debugger.Engine;

/// <summary>
/// What the session hears from the engine. Called on ICorDebug's callback thread while the
/// process is synchronised; the engine has already marked itself stopped before a method
/// that returns bool, and continues the process when that method answers false.
/// </summary>
/// <summary>Where a catch handler was found for an exception: the method and its handler's IL offset.</summary>
public sealed record ExceptionHandlerSite(string ModulePath, int MethodToken, uint Offset);

public interface IEngineListener
{
    void ThreadStarted(uint threadId);
    void ThreadExited(uint threadId);
    /// <summary>A module loaded (or was reported on attach): the moment to bind breakpoints.</summary>
    void ModuleLoaded(ICorDebugModule module, string path);
    bool BreakpointHit(uint threadId, ICorDebugFunctionBreakpoint breakpoint);
    /// <summary>A stepper finished; `stepper` tells a current step from a stale one queued before a stop;
    /// `reason` says how it ended (entering a call, returning, or a normal step).</summary>
    bool StepCompleted(uint threadId, StepperIdentity stepper, CorDebugStepReason reason);
    /// <summary>Debugger.Break() in user code (not the launch hold).</summary>
    bool BreakRequested(uint threadId);
    /// <summary>An exception event; eventType: 1 first chance, 2 user first chance,
    /// 3 catch handler found, 4 unhandled.</summary>
    bool ExceptionThrown(uint threadId, int eventType, ExceptionHandlerSite? handler);
    /// <summary>A pause requested while an event was being decided took effect: the process
    /// stays stopped where it was (instead of continuing after that event).</summary>
    void PausedInsteadOfContinuing();
    void ProcessExited();
}
