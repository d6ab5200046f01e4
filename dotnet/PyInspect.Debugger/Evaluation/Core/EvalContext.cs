// Where an expression is evaluated: the stopped frame, the loaded modules, the func-eval
// channel (null when calls are not possible) and the budgets LINQ enumeration respects.
// A frameless context (a breakpoint condition's getter run from memory) has a thread and a
// module but no ICorDebug frame: it names no variables and reads no thread statics.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Frames;

namespace PyInspect.Debugger.Evaluation.Core;

public sealed class EvalContext(FrameInfo? frame, ModuleCatalog modules, IDebuggeeCalls? calls, Func<FrameInfo?>? refreshFrame)
    : IDisposable
{
    private readonly List<ICorDebugHandleValue> _pins = [];

    private readonly List<Dictionary<string, object?>> _scopes = [];

    /// <summary>The frame evaluated in; null in a frameless context.</summary>
    public FrameInfo? Frame { get; private set; } = frame;
    public ModuleCatalog Modules { get; } = modules;

    private readonly uint _threadId;
    private readonly LoadedModule? _module;

    /// <summary>The stopped thread evaluated on (the frame's, or the one a frameless context was made for).</summary>
    public uint ThreadId => Frame?.ThreadId ?? _threadId;

    /// <summary>The module of the code evaluated in (the frame's method's, or a frameless context's).</summary>
    public LoadedModule? Module => Frame is { } f ? f.Module : _module;

    /// <summary>The ICorDebug frame for reads that take one (null: none, as for non-thread statics).</summary>
    public ICorDebugILFrame? ILFrame => Frame?.Frame;

    /// <summary>A context with no ICorDebug frame, for the IL interpreter at a breakpoint hit (making a
    /// frame costs a stack refresh): it runs getters on objects read from memory, nothing by name.</summary>
    public static EvalContext Frameless(uint threadId, LoadedModule module, ModuleCatalog modules, Func<ulong, byte[], int> readMemory) =>
        new(null, modules, null, null, threadId, module) { InterpretCalls = true, ReadMemory = readMemory };

    private EvalContext(FrameInfo? frame, ModuleCatalog modules, IDebuggeeCalls? calls, Func<FrameInfo?>? refreshFrame,
        uint threadId, LoadedModule module) : this(frame, modules, calls, refreshFrame)
    {
        _threadId = threadId;
        _module = module;
    }
    public IDebuggeeCalls? Calls { get; } = calls;

    /// <summary>The exception in flight on the thread (`$exception`), if any.</summary>
    public Func<ICorDebugValue?>? CurrentException { get; init; }

    public const int DefaultItemBudget = 10_000_000;
    public static readonly TimeSpan DefaultTimeBudget = TimeSpan.FromSeconds(10);

    /// <summary>Elements LINQ enumerates before giving up (reported in the error).</summary>
    public int ItemBudget { get; init; } = DefaultItemBudget;

    /// <summary>Wall time an evaluation may take before LINQ enumeration gives up.</summary>
    public TimeSpan TimeBudget { get; init; } = DefaultTimeBudget;

    /// <summary>False where evaluation must not change the program (hovers, read-only tools): assignments are refused.</summary>
    public bool AllowAssignments { get; init; } = true;

    /// <summary>True where the caller asked for no side effects (DAP noSideEffects, pyinspect's
    /// read-only tools): no debuggee code runs, so every call is refused by name (Calls is null then).</summary>
    public bool CallsRefused { get; init; }

    /// <summary>True where calls are interpreted from IL before func-eval runs them (breakpoint conditions and log
    /// points); read-only evaluations (CallsRefused) always interpret, and refuse where the interpreter refuses.</summary>
    public bool InterpretCalls { get; init; }

    public bool InterpretsCalls => CallsRefused || InterpretCalls;

    public const long DefaultIlInstructionBudget = 1_000_000;

    /// <summary>IL instructions the interpreter may run in this evaluation before it refuses (stated in the refusal).</summary>
    public long IlInstructionBudget { get; init; } = DefaultIlInstructionBudget;

    /// <summary>Reads the stopped debuggee's memory (address, into): bytes read. Null where it cannot.</summary>
    public Func<ulong, byte[], int>? ReadMemory { get; init; }

    /// <summary>Timeout for each func-eval (null: the engine's default).</summary>
    public TimeSpan? CallTimeout { get; init; }

    private static int _generation;

    /// <summary>Counts the func-evals run (by any evaluation): values read before the last one may be neutered.</summary>
    public static int Generation => Volatile.Read(ref _generation);

    public DateTime Started { get; } = DateTime.UtcNow;
    public int ItemsVisited { get; set; }
    public int CallsMade { get; private set; }

    /// <summary>One argument or local by name (`this` for the receiver), reading only that slot; null if none.</summary>
    public FrameVariable? Variable(string name)
    {
        if (Frame is null) throw new EvalException($"cannot read '{name}' here: no frame (a breakpoint condition's getter run from memory)");
        if (!File.Exists(Frame.ModulePath)) return null;
        var metadata = Symbols.ModuleMetadata.Open(Frame.ModulePath);
        var locals = Frame.Module?.Symbols?.GetLocals(Frame.MethodToken, (int)Frame.IlOffset) ?? [];
        // Async methods, lambdas and methods whose locals a lambda captured keep them in
        // compiler-generated objects: look them up the way the variables view shows them.
        if (locals.Any(l => l.Name.StartsWith("CS$<>8__locals", StringComparison.Ordinal))
            || GeneratedMethods.GetOrAdd((Frame.ModulePath, Frame.MethodToken),
                key => metadata.GetMethodDisplayName(key.Token).Contains('>', StringComparison.Ordinal)))
            return FrameVariables.Raw(Frame).FirstOrDefault(v => v.Name == name);
        bool isStatic = metadata.IsStatic(Frame.MethodToken);
        if (name == "this") return isStatic ? null : FrameVariable.Read(name, "this", Frame.Frame.GetArgument(0, out var self), self);
        foreach (var local in locals)
            if (local.Name == name) return FrameVariable.Read(name, "local", Frame.Frame.GetLocalVariable((uint)local.SlotIndex, out var value), value);
        var parameters = metadata.GetParameterNames(Frame.MethodToken);
        for (int i = 0; i < parameters.Count; i++)
            if (parameters[i] == name)
                return FrameVariable.Read(name, "argument", Frame.Frame.GetArgument((uint)(isStatic ? i : i + 1), out var value), value);
        return null;
    }

    /// <summary>Methods the compiler generated (state machines, lambdas), by module and token.</summary>
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<(string Module, int Token), bool> GeneratedMethods = new();

    /// <summary>A lambda parameter's value (innermost scope first), if `name` is one.</summary>
    public bool TryLambdaVariable(string name, out object? value)
    {
        for (int i = _scopes.Count - 1; i >= 0; i--)
            if (_scopes[i].TryGetValue(name, out value)) return true;
        value = null;
        return false;
    }

    /// <summary>A name declared by a pattern (`is Order o`), visible in the innermost scope.</summary>
    public void Declare(string name, object? value)
    {
        if (_scopes.Count == 0) _scopes.Add(new Dictionary<string, object?>(StringComparer.Ordinal));
        _scopes[^1][name] = value;
    }

    private readonly List<KeyValuePair<string, object?>> _outValues = [];

    /// <summary>Values `out var name` arguments received, in the order they were declared (reported beside the result).</summary>
    public IReadOnlyList<KeyValuePair<string, object?>> OutValues => _outValues;

    /// <summary>An `out var name`: declared like a pattern's name, and remembered for the report
    /// when it is the expression's own (one inside a lambda is per element, not one value).</summary>
    public void DeclareOut(string name, object? value)
    {
        Declare(name, value);
        if (_scopes.Count > 1) return;
        _outValues.RemoveAll(p => p.Key == name);
        _outValues.Add(new KeyValuePair<string, object?>(name, value));
    }

    public T WithScope<T>(Dictionary<string, object?> scope, Func<T> body)
    {
        _scopes.Add(scope);
        try { return body(); }
        finally { _scopes.RemoveAt(_scopes.Count - 1); }
    }

    /// <summary>Run a function in the debuggee; the frame is re-read afterwards (the run neutered it).</summary>
    public ICorDebugValue? Call(ICorDebugFunction function, IReadOnlyList<ICorDebugType> typeArguments, IReadOnlyList<ICorDebugValue> arguments) =>
        Run(function, calls => calls.Call(ThreadId, function, typeArguments, arguments, CallTimeout));

    /// <summary>A new object by one of its constructors, held by a handle for the rest of the evaluation.</summary>
    public ICorDebugValue NewObject(ICorDebugFunction constructor, IReadOnlyList<ICorDebugType> typeArguments, IReadOnlyList<ICorDebugValue> arguments) =>
        Pin(Run(constructor, calls => calls.NewObject(ThreadId, constructor, typeArguments, arguments, CallTimeout))!);

    /// <summary>Throws, naming the function, when no debuggee code may run; called before any
    /// argument is made in the debuggee, so the refusal names the call itself.</summary>
    public void RefuseIfNoCalls(ICorDebugFunction function)
    {
        if (CallsRefused) throw new CallRefusedException(CallRefusedException.NameOf(function));
    }

    /// <summary>Every func-eval goes through here: refused by name when the caller asked for no side effects.</summary>
    private ICorDebugValue? Run(ICorDebugFunction function, Func<IDebuggeeCalls, ICorDebugValue?> call)
    {
        RefuseIfNoCalls(function);
        IDebuggeeCalls calls = Calls ?? throw new EvalException("this needs a call into the debuggee (func-eval), which is not available here");
        CallsMade++;
        try
        {
            return call(calls);
        }
        catch (DebuggeeThrewException thrown)
        {
            throw new EvalException($"the call threw {thrown.ExceptionType}: {thrown.ExceptionMessage}");
        }
        catch (EvalTimeoutException timeout)
        {
            throw new EvalException(timeout.Message);
        }
        catch (EngineException error)
        {
            throw new EvalException($"cannot call into the debuggee here: {error.Message}");
        }
        finally
        {
            Refresh();
        }
    }

    public ICorDebugValue NewString(string text)
    {
        if (CallsRefused) throw new CallRefusedException("a string made in the debuggee (to pass to a call)");
        IDebuggeeCalls calls = Calls ?? throw new EvalException("passing a string needs func-eval, which is not available here");
        try { return calls.NewString(ThreadId, text); }
        finally { Refresh(); }
    }

    /// <summary>`sizeof` of a struct: the size the runtime gives a value of it (a zeroed one,
    /// made by func-eval without its constructor, so no user code runs), as `sizeof` in an
    /// unsafe context answers.</summary>
    public int ValueTypeSize(ICorDebugType type, string text)
    {
        if (type.GetType(out int elementType) < 0 || elementType != CorElementType.ValueType)
            throw new EvalException($"cannot take the size of '{text}': it is not a value type (CS0208)");
        if (CallsRefused) throw new CallRefusedException($"a value of '{text}' made in the debuggee (to read its size)");
        IDebuggeeCalls calls = Calls ?? throw new EvalException($"'sizeof({text})' needs func-eval, which is not available here");
        if (type.GetClass(out var cls) < 0) throw new EvalException($"cannot read the class of '{text}'");
        ICorDebugValue zeroed;
        try { zeroed = calls.NewZeroed(ThreadId, cls, Values.TypeNames.TypeArguments(type)); }
        catch (Exception error) when (error is EngineException or DebuggeeThrewException or EvalTimeoutException)
        {
            throw new EvalException($"cannot take the size of '{text}': {error.Message}");
        }
        finally { Refresh(); }
        // the new value comes as a reference to its boxed copy; the struct itself holds the size
        return Values.ValuePath.Dereference(zeroed) is { } value && value.GetSize(out uint size) >= 0 ? (int)size
            : throw new EvalException($"cannot read the size of '{text}'");
    }

    public ICorDebugValue NewPrimitive(int elementType, byte[] raw)
    {
        if (CallsRefused) throw new CallRefusedException("a value made in the debuggee (to pass to a call)");
        IDebuggeeCalls calls = Calls ?? throw new EvalException("passing a value needs func-eval, which is not available here");
        return calls.NewPrimitive(ThreadId, elementType, raw);
    }

    /// <summary>A debuggee object held by a strong handle for the rest of this evaluation, so
    /// func-evals made meanwhile cannot neuter it; other values are returned as they are.</summary>
    public ICorDebugValue Pin(ICorDebugValue value)
    {
        if (Calls is null || value is ICorDebugHandleValue) return value;
        if (value is not ICorDebugReferenceValue reference || reference.IsNull(out int isNull) < 0 || isNull != 0) return value;
        if (reference.Dereference(out var referent) < 0 || referent is not ICorDebugHeapValue2 heap) return value;
        if (heap.CreateHandle(1, out var handle) < 0) return value;
        _pins.Add(handle);
        return handle;
    }

    /// <summary>Releases the handles; results already described keep their own.</summary>
    public void Dispose()
    {
        foreach (var pin in _pins) pin.Dispose();
        _pins.Clear();
    }

    private void Refresh()
    {
        Interlocked.Increment(ref _generation);
        if (refreshFrame?.Invoke() is { } fresh) Frame = fresh;
    }

    /// <summary>`count` elements of a source read in one block: refused whole if they exceed the item budget.</summary>
    public void CountItems(string source, int count)
    {
        if ((long)ItemsVisited + count > ItemBudget)
            throw new EvalException($"stopped at element {Math.Max(0, ItemBudget - ItemsVisited)} of the source of '{source}' ({ItemsVisited} elements read "
                + $"before it, {count} in it): the item budget of {ItemBudget} is used up (pass a larger itemBudget)");
        ItemsVisited += count;
    }

    /// <summary>Throws when LINQ has used up its item or time budget, saying which and how far it got
    /// (`read` elements of `source` so far, ItemsVisited in the whole evaluation).</summary>
    public void CountItem(string source, int read)
    {
        ItemsVisited++;
        if (ItemsVisited > ItemBudget)
            throw new EvalException($"stopped at element {read} of the source of '{source}' ({ItemsVisited - 1} elements read in all): "
                + $"the item budget of {ItemBudget} is used up (pass a larger itemBudget)");
        if ((ItemsVisited & 1023) == 0 && DateTime.UtcNow - Started > TimeBudget)
            throw new EvalException($"stopped at element {read} of the source of '{source}' ({ItemsVisited} elements read in all) after "
                + $"{(DateTime.UtcNow - Started).TotalSeconds:0.#} s: the time budget of {TimeBudget.TotalSeconds:0.#} s is used up (pass a larger timeBudgetMs)");
    }
}
