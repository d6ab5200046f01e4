namespace PyInspect.Debugger.Engine;

/// <summary>
/// Code run inside the stopped debuggee on one of its threads (ICorDebugEval, "func-eval").
/// Each call lets the process run until the evaluation completes, bounded by a timeout
/// after which the evaluation is aborted; breakpoints and steps other threads reach
/// meanwhile are passed over. The process is stopped again when a call returns, but
/// values read before the call may be stale (ICorDebug neuters them on resume).
/// </summary>
public interface IDebuggeeCalls
{
    /// <summary>Call a method: arguments hold `this` first for an instance method; type
    /// arguments are the declaring type's generic arguments then the method's. Answers the
    /// return value, null for void. Throws DebuggeeThrewException when the callee throws,
    /// EvalTimeoutException when it overran (aborted), EngineException when the thread
    /// cannot evaluate here. For an instance method of a class, `this` must be a REFERENCE
    /// (the ICorDebugReferenceValue a local or field gives, or a strong handle from
    /// ICorDebugHeapValue2.CreateHandle): a dereferenced ICorDebugObjectValue is read as if
    /// it were a reference and crashes the debuggee. A struct's `this` is its value.
    /// Values read before a call may be neutered after it; handles stay valid.</summary>
    ICorDebugValue? Call(uint threadId, ICorDebugFunction function, IReadOnlyList<ICorDebugType> typeArguments,
        IReadOnlyList<ICorDebugValue> arguments, TimeSpan? timeout = null);

    /// <summary>A new object made by one of its constructors (type arguments: the type's
    /// generic arguments). Throws as Call does.</summary>
    ICorDebugValue NewObject(uint threadId, ICorDebugFunction constructor, IReadOnlyList<ICorDebugType> typeArguments,
        IReadOnlyList<ICorDebugValue> arguments, TimeSpan? timeout = null);

    /// <summary>A new value of a type made without its constructor (every field zero; no user
    /// code runs), type arguments being the type's generic arguments. Throws as Call does.</summary>
    ICorDebugValue NewZeroed(uint threadId, ICorDebugClass type, IReadOnlyList<ICorDebugType> typeArguments);

    /// <summary>A new string object in the debuggee.</summary>
    ICorDebugValue NewString(uint threadId, string text);

    /// <summary>A new primitive value (bool, char, integers, floats; CorElementType and
    /// its little-endian bytes) to pass as an argument.</summary>
    ICorDebugValue NewPrimitive(uint threadId, int elementType, byte[] raw);
}

/// <summary>The evaluated code threw; the message reads "Type: message".</summary>
public sealed class DebuggeeThrewException(string exceptionType, string message, ICorDebugValue? exception)
    : Exception($"{exceptionType}: {message}")
{
    public string ExceptionType { get; } = exceptionType;
    public string ExceptionMessage { get; } = message;
    public ICorDebugValue? ExceptionObject { get; } = exception;
}

/// <summary>The evaluation did not finish within its timeout and was aborted.</summary>
public sealed class EvalTimeoutException(TimeSpan timeout)
    : Exception($"the evaluation did not finish within {timeout.TotalSeconds:0.#} s and was aborted");
