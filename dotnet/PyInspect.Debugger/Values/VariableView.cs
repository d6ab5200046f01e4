using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Values;

/// <summary>
/// One variable as DAP shows it. Address is the object's address for reference types
/// (DAP's memoryReference), null for nulls, primitives and structs. Children, when
/// present, is what a variablesReference expands to.
/// </summary>
public sealed record VariableView(string Name, string Value, string Type, string EvaluateName,
    ulong? Address, ChildSource? Children, int NamedCount = 0, int IndexedCount = 0, string? Kind = null);

/// <summary>What a variable expands to; valid until the debuggee resumes.</summary>
public abstract record ChildSource(string EvaluateName);

/// <summary>An object's or struct's instance fields (base classes included) and getter
/// properties. An object (not a struct) is held through a strong handle: the handle stays
/// valid while func-evals let the process run, where plain values go stale.</summary>
public sealed record ObjectChildren(ICorDebugObjectValue Object, ICorDebugType Type, string EvaluateName,
    ICorDebugHandleValue? Handle = null) : ChildSource(EvaluateName)
{
    /// <summary>The object as it is now (through the handle when there is one).</summary>
    public ICorDebugObjectValue Current() =>
        Handle is not null && Handle.Dereference(out var now) >= 0 && now is ICorDebugObjectValue obj ? obj : Object;

    /// <summary>What a method of this object takes as `this`: the handle, or the struct itself.</summary>
    public ICorDebugValue Receiver => (ICorDebugValue?)Handle ?? Object;
}

/// <summary>An array's elements in row-major order.</summary>
public sealed record ArrayChildren(ICorDebugArrayValue Array, uint[] Dimensions, string EvaluateName)
    : ChildSource(EvaluateName);

/// <summary>A fixed list of views (a frame's arguments and locals).</summary>
public sealed record ListChildren(IReadOnlyList<VariableView> Items) : ChildSource("");

/// <summary>The fields of a value the adapter made (an interpreted getter's struct): read when
/// the client expands it, once, so values nested in it are described only when asked for.</summary>
public sealed record MadeChildren(Lazy<IReadOnlyList<VariableView>> Items) : ChildSource("");
