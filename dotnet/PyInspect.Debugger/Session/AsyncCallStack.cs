// The logical callers of a resumed async method. After its first real await, an async
// method runs from the thread pool: the physical stack below its MoveNext is runtime code,
// and the method that awaits it is no longer there. Where it is, the runtime says: the
// method's task holds its continuation, the awaiting method's state machine box (or a
// delegate whose target is that box); that box is the awaiting method's own task, and so
// on up. Each awaiting method is shown at the await it waits in (its `<>1__state` is the
// index of that await, whose yield point the PDB gives). No code runs in the debuggee.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

/// <summary>An awaiting async method: its display name and where it waits.</summary>
public sealed record AsyncCaller(string Name, string ModulePath, SourceSpan? Source);

public static class AsyncCallStack
{
    private const int MaxCallers = 64;

    /// <summary>The awaiting callers of the outermost async method on the stack, nearest first;
    /// empty when that method still has its caller below it (it has not yielded yet).</summary>
    public static List<AsyncCaller> Callers(IReadOnlyList<FrameInfo> frames, ModuleCatalog modules)
    {
        var callers = new List<AsyncCaller>();
        int outermost = -1;
        for (int i = 0; i < frames.Count; i++)
            if (frames[i].Source is not null) outermost = i;
        if (outermost < 0 || !StateMachineFrames.IsMoveNext(frames[outermost])) return callers;
        if (frames[outermost].Frame.GetArgument(0, out var machine) < 0) return callers;
        ICorDebugValue? task = StateMachineFrames.MethodTask(machine);
        for (int depth = 0; depth < MaxCallers && task is not null; depth++)
        {
            if (AwaitingBox(task) is not { } box || ValuePath.Member(box, "StateMachine") is not { } awaiting) break;
            if (Describe(awaiting, modules) is not { } caller) break;
            callers.Add(caller);
            task = box;  // the box is the awaiting method's task: its own awaiter comes next
        }
        return callers;
    }


    /// <summary>The state machine box a task's continuation leads to (directly, or as the target
    /// of the continuation delegate, plain or wrapped in a TaskContinuation, or through a
    /// combinator's promise such as Task.WhenAll's); null for others.</summary>
    private static ICorDebugValue? AwaitingBox(ICorDebugValue task) => AwaitedBy(task)?.Box;

    /// <summary>The task the awaiting method's awaiter reads for this one: the method's own task,
    /// or the combinator's promise it completes (`await Task.WhenAll(A(), B())` waits on the
    /// promise, not on A's task); null when no state machine awaits it.</summary>
    public static ICorDebugValue? AwaitedTask(ICorDebugValue task) => AwaitedBy(task)?.Awaited;

    private static (ICorDebugValue Box, ICorDebugValue Awaited)? AwaitedBy(ICorDebugValue task)
    {
        ICorDebugValue awaited = task;
        ICorDebugValue? continuation = ValuePath.Dereference(task) is null ? null : ValuePath.Member(task, "m_continuationObject");
        for (int hops = 0; hops < 6 && continuation is not null && ValuePath.Dereference(continuation) is not null; hops++)
        {
            if (ValuePath.Member(continuation, "StateMachine") is not null) return (continuation, awaited);
            if (ValuePath.Member(continuation, "m_continuationObject") is { } next)  // a promise: a task itself
            {
                awaited = continuation;
                continuation = next;
                continue;
            }
            continuation = ValuePath.Member(continuation, "_target")           // an Action
                ?? ValuePath.Member(continuation, "m_action")                 // a TaskContinuation
                ?? ValuePath.Member(continuation, "_continuation");           // a ContinuationWrapper
        }
        return null;
    }

    /// <summary>The awaiting method a state machine stands for, at the await its state names.</summary>
    private static AsyncCaller? Describe(ICorDebugValue machine, ModuleCatalog modules)
    {
        if (ValuePath.Dereference(machine) is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0
            || type.GetClass(out var cls) < 0 || cls.GetToken(out int typeDef) < 0 || cls.GetModule(out var module) < 0)
            return null;
        string path = DebuggerEngine.ModuleName(module);
        if (!File.Exists(path)) return null;
        ModuleMetadata metadata = ModuleMetadata.Open(path);
        int moveNext = metadata.FindMethods(metadata.GetTypeName(typeDef), "MoveNext").FirstOrDefault();
        if (moveNext == 0) return null;
        string name = FrameWalker.MethodName(path, moveNext);
        SourceSpan? source = null;
        if (modules.Find(path)?.Symbols is { } symbols && StateMachineFrames.State(machine) is int awaitIndex and >= 0
            && symbols.AwaitPoints(moveNext) is { } awaits && awaitIndex < awaits.Count)
            source = symbols.GetSourceSpan(moveNext, awaits[awaitIndex].YieldOffset);
        return new AsyncCaller(name, path, source);
    }
}
