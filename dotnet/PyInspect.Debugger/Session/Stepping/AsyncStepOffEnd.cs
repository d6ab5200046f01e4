// Stepping over the end (the closing brace) of an async method that has already awaited:
// its caller is not on the stack, it resumes when the method's task completes, maybe on
// this thread (inside SetResult) or another. As Visual Studio does, the step goes on to
// the awaiting caller: the same wait-completion notification a step out uses (AsyncStepOut)
// leads back to it, and a step over from there finishes the caller's await statement, so
// the stop is on the line after its await.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;

namespace PyInspect.Debugger.Session;

public sealed class AsyncStepOffEnd(Debuggee debuggee, AsyncStepOut asyncStepOut)
{
    /// <summary>A step over the end of an async method reached its caller through a step out:
    /// when that step out returns, step over the rest of the caller's await statement.</summary>
    private bool _steppingOffAsyncEnd;

    public void Reset() => _steppingOffAsyncEnd = false;

    /// <summary>Before a step over: on an async method's closing brace (past the catch-all
    /// around its body), after it has awaited, arm the way back to the awaiting caller.</summary>
    public void Prepare(uint threadId, ICorDebugThread thread)
    {
        _steppingOffAsyncEnd = false;
        FrameInfo? top = debuggee.Walk(threadId, thread, 1).FirstOrDefault();
        if (top?.Module?.Symbols is not { } symbols || !StateMachineFrames.IsMoveNext(top)
            || symbols.AsyncCatchHandlerOffset(top.MethodToken) is not int handler) return;
        var ranges = symbols.GetStepRanges(top.MethodToken, (int)top.IlOffset);
        if (ranges.Count == 0 || ranges[0].Start <= handler) return;
        // Only when user code awaits it: a method awaited by framework code (an endpoint)
        // ends its step there, as any step off the end of user code does.
        var frames = debuggee.Walk(threadId, thread, 64);
        if (AsyncCallStack.Callers(frames, debuggee.Modules).FirstOrDefault()?.Source is null) return;
        _steppingOffAsyncEnd = asyncStepOut.Prepare(threadId, thread);
    }

    /// <summary>The step out to the awaiting caller returned there, inside its await
    /// statement: true when the rest of it is to be stepped over (the step goes on).</summary>
    public bool GoesOn(uint threadId, ICorDebugThread thread, CorDebugStepReason reason)
    {
        if (!_steppingOffAsyncEnd || reason != CorDebugStepReason.Return || asyncStepOut.IsArmed) return false;
        _steppingOffAsyncEnd = false;
        FrameInfo? top = debuggee.Walk(threadId, thread, 1).FirstOrDefault();
        return top?.Module?.Symbols is { } symbols && !StepInOn.AtStatementStart(top, symbols);
    }
}
