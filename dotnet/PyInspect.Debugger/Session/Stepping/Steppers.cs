// Every step in flight and the one rule that ends them: a plain ICorDebug stepper
// (SimpleStepper), a step over an await that follows its state machine (AsyncStepper), a
// step out of a resumed async method that waits for its awaiter (AsyncStepOut), a step in
// that goes on past filtered or hidden code (StepInOn) and a step over an async method's
// end that goes on to its awaiting caller (AsyncStepOffEnd). Whatever stops the process
// ends them (CancelAll).
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;

namespace PyInspect.Debugger.Session;

public enum StepKind { Over, In, Out }

public sealed class Steppers
{
    private readonly Debuggee _debuggee;
    private readonly AsyncStepper _asyncStep;
    private readonly AsyncStepOut _asyncStepOut;
    private readonly StepInOn _stepIn;
    private readonly AsyncStepOffEnd _stepOffAsyncEnd;
    private ICorDebugStepper? _activeStepper;
    private StepKind _kind;  // the step the user asked for: it carries on so where an await resumes

    public Steppers(Debuggee debuggee, StepFilter stepFilter)
    {
        _debuggee = debuggee;
        _asyncStep = new AsyncStepper(debuggee);
        _asyncStepOut = new AsyncStepOut(debuggee);
        _stepIn = new StepInOn(debuggee, stepFilter);
        _stepOffAsyncEnd = new AsyncStepOffEnd(debuggee, _asyncStepOut);
    }

    /// <summary>Starts a step on the thread (the process is resumed by the caller). A step
    /// over or in on a statement holding an await follows its state machine (a step in that
    /// enters no user method lands on the next line, as a step over does), and one on an
    /// async method's closing brace goes on to its awaiting caller.</summary>
    public void Begin(uint threadId, ICorDebugThread thread, StepKind kind)
    {
        _stepIn.Reset();
        _kind = kind;
        if (kind == StepKind.Out) _asyncStep.End();
        else
        {
            _asyncStep.Prepare(threadId, thread);
            _stepOffAsyncEnd.Prepare(threadId, thread);
        }
        if (kind == StepKind.Out && _asyncStepOut.Prepare(threadId, thread))
            _activeStepper = null;  // the caller is reached through the task's completion, not the stack
        else
            _activeStepper = SimpleStepper.Begin(threadId, thread, kind, _debuggee.Modules);
    }

    /// <summary>The one place a stop ends every step: the one we started, any other ICorDebug
    /// still holds (a step that ended elsewhere, on a breakpoint or a pause), and the async
    /// steps' breakpoints and handles.</summary>
    public void CancelAll()
    {
        _activeStepper?.Deactivate();
        _activeStepper = null;
        try { _debuggee.Engine?.CancelAllSteppers(); }
        catch (Exception error) when (error is EngineException or System.Runtime.InteropServices.COMException)
        {
            _debuggee.SendOutput("console", $"could not cancel the steppers: {error.Message}\n");
        }
        EndAsyncSteps();
    }

    /// <summary>Let go of every step without touching ICorDebug's steppers (the engine is
    /// detaching or the process is ending).</summary>
    public void Forget()
    {
        _activeStepper = null;
        EndAsyncSteps();
    }

    private void EndAsyncSteps()
    {
        _asyncStep.End();  // whatever stopped, a step over or out of an await is no longer waiting
        _asyncStepOut.End();
    }

    /// <summary>A step-complete callback: the stop it leads to, or null to run on. A step
    /// that ends in code without source (an async method's kickoff stub) steps out on to the
    /// next frame with source; one that left user code for good (Main returned into the
    /// runtime) lets the process run on.</summary>
    public StopEvent? Completed(uint threadId, StepperIdentity stepper, CorDebugStepReason reason)
    {
        if (!stepper.Is(_activeStepper)) return null;  // a step cancelled by a stop, its callback queued before it
        _activeStepper = null;
        if (_asyncStep.StepEndedInsideAwait()) return null;  // the method waits at an await: the step ends where it resumes
        if (_debuggee.Thread(threadId) is not { } thread) return null;
        if (_stepIn.GoesOn(threadId, thread, reason) is { } goesOn)
        {
            _activeStepper = SimpleStepper.Begin(threadId, thread, goesOn, _debuggee.Modules);
            return null;
        }
        if (_debuggee.Walk(threadId, thread, 1).FirstOrDefault()?.Source is null)
        {
            if (_debuggee.Walk(threadId, thread, 64).Skip(1).Any(f => f.Source is not null))
                _activeStepper = SimpleStepper.Begin(threadId, thread, StepKind.Out, _debuggee.Modules);
            return null;
        }
        return new StopEvent("step", threadId);
    }

    /// <summary>A breakpoint the steps planted (an await's resume point, a task's
    /// wait-completion notification): true when it is theirs, never a stop itself.</summary>
    public bool OwnsBreakpoint(uint threadId, ICorDebugFunctionBreakpoint breakpoint)
    {
        if (_asyncStep.IsResume(threadId, breakpoint, out var resumed))
        {
            if (resumed is not null) Restart(threadId, resumed, _kind);
            return true;
        }
        if (_asyncStepOut.IsNotification(threadId, breakpoint, out var caller))
        {
            if (caller is not null) Restart(threadId, caller, StepKind.Out);
            return true;
        }
        return false;
    }

    /// <summary>The step carries on from another point (the first stepper may still be looking for user code elsewhere).</summary>
    private void Restart(uint threadId, ICorDebugThread thread, StepKind kind)
    {
        _activeStepper?.Deactivate();
        _activeStepper = SimpleStepper.Begin(threadId, thread, kind, _debuggee.Modules);
    }
}
