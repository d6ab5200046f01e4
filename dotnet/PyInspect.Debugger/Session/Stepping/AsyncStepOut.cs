// Stepping out of an async method that has already awaited: its caller is no longer on the
// stack (the method was resumed by the thread pool), so a plain step out finds no user code
// to return to. As Visual Studio does, the method's task (and, when the caller awaits it
// through Task.WhenAll, the combinator's promise) is asked to notify the debugger when its
// awaiter reads the result (Task.SetNotificationForWaitCompletion, by func-eval); the
// runtime then calls Task.NotifyDebuggerOfWaitCompletion on the awaiting caller's thread,
// where a breakpoint catches it and a step out lands in the caller's code.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Evaluation;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public sealed class AsyncStepOut(Debuggee debuggee)
{
    private const string CoreLibrary = "System.Private.CoreLib.dll";

    /// <summary>A step out of a resumed async method in flight: its task and the notification breakpoint.</summary>
    private sealed record StepOut(ICorDebugHandleValue Task, ICorDebugFunctionBreakpoint Notification);

    private StepOut? _asyncStepOut;

    /// <summary>A notification is armed and has not arrived yet.</summary>
    public bool IsArmed => _asyncStepOut is not null;

    /// <summary>Arms the wait-completion notification when the top frame is a resumed async
    /// method (no user code below it on the stack); true when armed, so no plain step out is needed.</summary>
    public bool Prepare(uint threadId, ICorDebugThread thread)
    {
        End();
        var frames = debuggee.Walk(threadId, thread, 64);
        if (frames.FirstOrDefault() is not { } top || !StateMachineFrames.IsMoveNext(top)
            || top.Module?.Symbols?.AsyncCatchHandlerOffset(top.MethodToken) is null)
            return false;
        if (frames.Skip(1).Any(f => f.Source is not null)) return false;  // still in its first, synchronous part
        if (top.Frame.GetArgument(0, out var machine) < 0 || StateMachineFrames.MethodTask(machine) is not { } own) return false;
        ICorDebugValue task = AsyncCallStack.AwaitedTask(own) ?? own;  // through Task.WhenAll: the promise its awaiter reads
        if (CoreLibraryFunction("System.Threading.Tasks.Task", "NotifyDebuggerOfWaitCompletion") is not { } notify
            || CoreLibraryFunction("System.Threading.Tasks.Task", "SetNotificationForWaitCompletion") is not { } setNotification)
            return false;
        if (ObjectHandles.HoldStrongly(task) is not { } handle) return false;
        // A combinator's promise notifies only when one of its tasks asks to: both are asked.
        ICorDebugHandleValue? ownHandle = ReferenceEquals(task, own) ? null : ObjectHandles.HoldStrongly(own);
        try
        {
            IDebuggeeCalls calls = debuggee.Calls;
            foreach (ICorDebugHandleValue notified in (ICorDebugHandleValue?[])[ownHandle, handle])
                if (notified is not null)
                    calls.Call(threadId, setNotification, [], [notified, calls.NewPrimitive(threadId, CorElementType.Boolean, [1])]);
        }
        catch (Exception error) when (error is EngineException or DebuggeeThrewException or EvalTimeoutException)
        {
            handle.Dispose();
            return false;
        }
        finally { ownHandle?.Dispose(); }
        if (notify.GetILCode(out var code) < 0 || code.CreateBreakpoint(0, out var breakpoint) < 0)
        {
            handle.Dispose();
            return false;
        }
        breakpoint.Activate(1);
        _asyncStepOut = new StepOut(handle, breakpoint);
        return true;
    }

    /// <summary>The notification breakpoint: true when it is ours. `caller` is the thread on
    /// which our task's awaiter reads its result (step out there into the caller), null for
    /// another task's notification.</summary>
    public bool IsNotification(uint threadId, ICorDebugFunctionBreakpoint breakpoint, out ICorDebugThread? caller)
    {
        caller = null;
        if (_asyncStepOut is not { } step || !BreakpointLocation.Same(step.Notification, breakpoint)) return false;
        if (debuggee.Thread(threadId) is not { } thread || thread.GetActiveFrame(out var frame) < 0
            || frame is not ICorDebugILFrame il || il.GetArgument(0, out var task) < 0 || !ObjectHandles.SameObject(task, step.Task))
            return true;  // another task's notification
        End();
        caller = thread;
        return true;
    }

    public void End()
    {
        if (_asyncStepOut is not { } step) return;
        _asyncStepOut = null;
        step.Notification.Activate(0);
        step.Task.Dispose();
    }


    private ICorDebugFunction? CoreLibraryFunction(string typeName, string methodName)
    {
        if (debuggee.Modules.All().FirstOrDefault(m => m.FileName == CoreLibrary) is not { } corelib
            || ModuleMetadata.TryOpen(corelib.Path) is not { } md || md.FindType(typeName) is not int type)
            return null;
        int? token = md.Methods(type, methodName).FirstOrDefault()?.Token;
        return token is int t && corelib.Module.GetFunctionFromToken(t, out var function) >= 0 ? function : null;
    }
}
