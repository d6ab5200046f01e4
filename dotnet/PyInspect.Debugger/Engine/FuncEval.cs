// Running code in the stopped debuggee (ICorDebugEval): method calls, new strings and
// primitive values to pass as arguments. The engine lets the process run while an
// evaluation is in flight and aborts it at its timeout.
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

public sealed unsafe class FuncEval(DebuggerEngine engine, Func<ICorDebugValue, (string Type, string Message)> describeException)
    : IDebuggeeCalls
{
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(5);

    // HRESULTs a call can fail with before it runs, in words a user can act on.
    private const int FuncEvalBadStartPoint = unchecked((int)0x80131313);
    private const int IllegalInOptimizedCode = unchecked((int)0x80131C26);
    private const int IllegalAtGcUnsafePoint = unchecked((int)0x80131C23);
    private const int IllegalInProlog = unchecked((int)0x80131C24);
    private const int IllegalInNativeCode = unchecked((int)0x80131C25);

    public ICorDebugValue? Call(uint threadId, ICorDebugFunction function, IReadOnlyList<ICorDebugType> typeArguments,
        IReadOnlyList<ICorDebugValue> arguments, TimeSpan? timeout = null)
    {
        ICorDebugEval eval = Create(threadId);
        nint[] types = Pointers(typeArguments);
        nint[] args = Pointers(arguments);
        try
        {
            fixed (nint* typesPtr = types)
            fixed (nint* argsPtr = args)
                ThrowIfCannotStart(((ICorDebugEval2)eval).CallParameterizedFunction(
                    function, (uint)types.Length, typesPtr, (uint)args.Length, argsPtr));
        }
        finally { Release(types); Release(args); }
        return Finish(eval, timeout ?? DefaultTimeout);
    }

    public ICorDebugValue NewObject(uint threadId, ICorDebugFunction constructor, IReadOnlyList<ICorDebugType> typeArguments,
        IReadOnlyList<ICorDebugValue> arguments, TimeSpan? timeout = null)
    {
        ICorDebugEval eval = Create(threadId);
        nint[] types = Pointers(typeArguments);
        nint[] args = Pointers(arguments);
        nint none = 0;  // NewParameterizedObject rejects a null argument array, even an empty one
        try
        {
            fixed (nint* typesPtr = types)
            fixed (nint* argsPtr = args)
                ThrowIfCannotStart(((ICorDebugEval2)eval).NewParameterizedObject(
                    constructor, (uint)types.Length, typesPtr, (uint)args.Length, args.Length == 0 ? &none : argsPtr));
        }
        finally { Release(types); Release(args); }
        return Finish(eval, timeout ?? DefaultTimeout) ?? throw new EngineException("the new object has no value");
    }

    public ICorDebugValue NewZeroed(uint threadId, ICorDebugClass type, IReadOnlyList<ICorDebugType> typeArguments)
    {
        ICorDebugEval eval = Create(threadId);
        nint[] types = Pointers(typeArguments);
        try
        {
            fixed (nint* typesPtr = types)
                ThrowIfCannotStart(((ICorDebugEval2)eval).NewParameterizedObjectNoConstructor(type, (uint)types.Length, typesPtr));
        }
        finally { Release(types); }
        return Finish(eval, DefaultTimeout) ?? throw new EngineException("the new value has no value");
    }

    public ICorDebugValue NewString(uint threadId, string text)
    {
        ICorDebugEval eval = Create(threadId);
        ThrowIfCannotStart(((ICorDebugEval2)eval).NewStringWithLength(text, (uint)text.Length));
        return Finish(eval, DefaultTimeout) ?? throw new EngineException("the new string has no value");
    }

    public ICorDebugValue NewPrimitive(uint threadId, int elementType, byte[] raw)
    {
        ICorDebugEval eval = Create(threadId);
        EngineException.ThrowIfFailed(eval.CreateValue(elementType, null, out var value), "ICorDebugEval.CreateValue");
        if (value is not ICorDebugGenericValue generic) throw new EngineException($"element type 0x{elementType:X} is no primitive");
        fixed (byte* bytes = raw)
            EngineException.ThrowIfFailed(generic.SetValue((nint)bytes), "ICorDebugGenericValue.SetValue");
        return value;
    }

    private ICorDebugEval Create(uint threadId)
    {
        ICorDebugThread thread = engine.GetThread(threadId) ?? throw new EngineException($"unknown thread {threadId}");
        EngineException.ThrowIfFailed(thread.CreateEval(out nint pointer), "ICorDebugThread.CreateEval");
        var eval = DebuggerEngine.Wrap<ICorDebugEval>(pointer);
        Marshal.Release(pointer);
        return eval;
    }

    private ICorDebugValue? Finish(ICorDebugEval eval, TimeSpan timeout)
    {
        bool threw = engine.RunEval(eval, timeout);
        int hr = eval.GetResult(out ICorDebugValue? result);
        if (threw)
        {
            var (type, message) = result is null ? ("System.Exception", "unknown exception") : describeException(result);
            throw new DebuggeeThrewException(type, message, result);
        }
        if (hr < 0) throw new EngineException($"the evaluation has no result (0x{hr:X8})");
        return result;
    }

    private static void ThrowIfCannotStart(int hr)
    {
        if (hr >= 0) return;
        string? reason = hr switch
        {
            IllegalAtGcUnsafePoint or FuncEvalBadStartPoint or IllegalInProlog =>
                "the thread is not at a point where code can run (stop at a breakpoint or step first)",
            IllegalInOptimizedCode => "the thread is in optimized code, where code cannot run",
            IllegalInNativeCode => "the thread is in native code, where code cannot run",
            _ => null,
        };
        throw new EngineException(reason is null ? $"cannot evaluate here (0x{hr:X8})" : $"cannot evaluate: {reason}");
    }

    /// <summary>Native interface pointers (AddRef'd) for an array argument; Release after.</summary>
    private static nint[] Pointers<T>(IReadOnlyList<T> items) where T : class
    {
        var pointers = new nint[items.Count];
        for (int i = 0; i < items.Count; i++)
            pointers[i] = (nint)ComInterfaceMarshaller<T>.ConvertToUnmanaged(items[i]);
        return pointers;
    }

    private static void Release(nint[] pointers)
    {
        foreach (nint pointer in pointers) if (pointer != 0) Marshal.Release(pointer);
    }
}
