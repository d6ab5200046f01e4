// Stepping over the end (the closing brace) of an async method that has already awaited:
// its caller is not on the stack, it resumes when the method's task completes, maybe on
// this thread (inside SetResult) or another. As Visual Studio does, the step goes on to
// the awaiting caller: the same wait-completion notification a step out uses (AsyncStepOut)
// leads back to it, and the stop is on the caller's await line, as a step out of the method
// stops there (and as a step off the end of any method stops on its caller's call).
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;

namespace PyInspect.Debugger.Session;

public sealed class AsyncStepOffEnd(Debuggee debuggee, AsyncStepOut asyncStepOut)
{
    /// <summary>Before a step over or in: on an async method's closing brace (past the
    /// catch-all around its body), after it has awaited, arm the way back to the awaiting caller.</summary>
    public void Prepare(uint threadId, ICorDebugThread thread)
    {
        FrameInfo? top = debuggee.Walk(threadId, thread, 1).FirstOrDefault();
        if (top?.Module?.Symbols is not { } symbols || !StateMachineFrames.IsMoveNext(top)
            || symbols.AsyncCatchHandlerOffset(top.MethodToken) is not int handler) return;
        var ranges = symbols.GetStepRanges(top.MethodToken, (int)top.IlOffset);
        if (ranges.Count == 0 || ranges[0].Start <= handler) return;
        // Only when user code awaits it: a method awaited by framework code (an endpoint)
        // ends its step there, as any step off the end of user code does.
        var frames = debuggee.Walk(threadId, thread, 64);
        if (AsyncCallStack.Callers(frames, debuggee.Modules).FirstOrDefault()?.Source is null) return;
        asyncStepOut.Prepare(threadId, thread);
    }
}
