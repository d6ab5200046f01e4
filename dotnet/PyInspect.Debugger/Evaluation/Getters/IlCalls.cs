// Where the evaluator hands a call to the interpreter instead of func-eval: read-only
// evaluations (and breakpoint conditions, which fall back to func-eval) interpret the
// method's IL against memory. Answers the result, the exception the code threw, or (in a
// read-only evaluation) the refusal naming the method and the reason.
using System.Runtime.CompilerServices;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.IL.Machine;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.Getters;

public static class IlCalls
{
    private static readonly ConditionalWeakTable<EvalContext, IlMachine> Machines = new();

    /// <summary>One resolver per debuggee's module list: what it learned (assemblies by name) outlives each evaluation.</summary>
    private static readonly ConditionalWeakTable<Frames.ModuleCatalog, IlResolver> Resolvers = new();

    /// <summary>The evaluation's interpreter (one budget per evaluation).</summary>
    public static IlMachine MachineOf(EvalContext context) =>
        Machines.GetValue(context, c => new IlMachine(c, Resolvers.GetValue(c.Modules, m => new IlResolver(m)), c.IlInstructionBudget));

    /// <summary>True with the result when interpreted (a virtual method dispatched on the receiver's type, as
    /// func-eval does, unless `virtualDispatch` is false: `base.M()`). False when the interpreter refused and calls are
    /// allowed (the caller runs func-eval); in a read-only evaluation a refusal throws CallRefusedException.</summary>
    public static bool TryRun(EvalContext context, ICorDebugFunction function, IReadOnlyList<ICorDebugType> typeArguments,
        ICorDebugValue? self, IReadOnlyList<object?> arguments, out object? result, bool virtualDispatch = true)
    {
        result = null;
        if (!context.InterpretsCalls) return false;
        IlMachine machine = MachineOf(context);
        try
        {
            long resolving = HitProfile.Start();
            IlMethod method = MethodOf(machine, function, typeArguments);
            var args = new List<object?>();
            if (!method.IsStatic)
            {
                object? receiver = Receiver(machine, method, self);
                if (virtualDispatch && method.IsVirtual && receiver is DebuggeeObject obj) method = machine.Devirtualize(method, machine.Debuggee.RuntimeType(obj));
                args.Add(receiver);
            }
            for (int i = 0; i < arguments.Count; i++) args.Add(FromEvaluator(machine, arguments[i]));
            HitProfile.Add("il: resolve method + read receiver", resolving);
            long running = HitProfile.Start();
            result = IlResults.ToEvaluator(machine, machine.Run(method, [.. args]), method.ReturnType);
            HitProfile.Add("il: run", running);
            return true;
        }
        catch (IlThrown thrown)
        {
            throw Threw(thrown);
        }
        catch (IlRefusal refusal)
        {
            if (!context.CallsRefused) return false;
            string called = CallRefusedException.NameOf(function);
            string where = refusal.Method is { } inner && inner != called ? $" in {inner}" : "";
            string reason = refusal.Reason.EndsWith($" ({called})", StringComparison.Ordinal) ? refusal.Reason[..^(called.Length + 3)] : refusal.Reason;
            throw new CallRefusedException($"{called} ({reason}{where})");
        }
        catch (Exception error) when (error is not (EvalException or EngineException or OutOfMemoryException))
        {
            // The interpreter's own failure (metadata it cannot read, a shape it does not model): never a wrong
            // answer and never a dead adapter: refused where the evaluation is read-only, func-eval otherwise.
            if (!context.CallsRefused) return false;
            throw new CallRefusedException($"{CallRefusedException.NameOf(function)} (the interpreter could not run it: {error.GetType().Name}: {error.Message})");
        }
    }

    /// <summary>What the interpreted code threw, as the evaluator answers it (func-eval's words for a call that threw).</summary>
    private static EvalException Threw(IlThrown thrown) => new($"the call threw {thrown.TypeName}: {thrown.Message}");

    /// <summary>The method an instance getter runs as on this object's exact type (dispatched as TryRun dispatches
    /// it), for a breakpoint condition to run again on later objects of the same type. Null where the interpreter
    /// does not take it here (a static or struct method, parameters, metadata it cannot resolve).</summary>
    public static IlMethod? GetterOn(EvalContext context, ICorDebugFunction getter, ICorDebugObjectValue self)
    {
        IlMachine machine = MachineOf(context);
        try
        {
            IlMethod method = MethodOf(machine, getter, []);
            if (method.IsStatic || method.DeclaringType.IsValueType || method.Parameters.Count > 0) return null;
            return method.IsVirtual ? machine.Devirtualize(method, machine.Debuggee.RuntimeType(new DebuggeeObject(self, self))) : method;
        }
        catch (Exception error) when (error is not OutOfMemoryException)
        {
            return null;
        }
    }

    /// <summary>Runs a method GetterOn answered on an object of its type: true with the evaluator's value; what the
    /// code threw as TryRun answers it (an EvalException); false where the interpreter refused or failed (the
    /// caller's slower path then decides, func-eval included).</summary>
    public static bool TryRunOn(EvalContext context, IlMethod method, DebuggeeObject self, out object? result)
    {
        result = null;
        // The evaluation is this one run: a machine of its own (MachineOf would keep one per context, a weak-table entry per hit).
        var machine = new IlMachine(context, Resolvers.GetValue(context.Modules, m => new IlResolver(m)), context.IlInstructionBudget);
        try
        {
            result = IlResults.ToEvaluator(machine, machine.Run(method, [self]), method.ReturnType);
            return true;
        }
        catch (IlThrown thrown)
        {
            throw Threw(thrown);
        }
        catch (Exception error) when (error is not OutOfMemoryException)
        {
            return false;
        }
    }

    /// <summary>A property of a struct or object the interpreter made (`point.Doubled.LengthSquared`): its getter,
    /// found on the value's type or a base, interpreted on it. False when the type has no such getter.</summary>
    public static bool TryGetterOfMade(EvalContext context, MadeValue made, string name, out object? result)
    {
        result = null;
        if (made.Held is not LocalObject obj) return false;
        IlMachine machine = MachineOf(context);
        IlMethod? getter = null;
        try
        {
            getter = InstanceGetter(machine.Resolver, obj.Type, name);
            if (getter is null) return false;
            object? self = obj.Type.IsValueType ? new SlotRef([obj.Copy()], 0) : obj;
            result = IlResults.ToEvaluator(machine, machine.Run(getter, [self]), getter.ReturnType);
            return true;
        }
        catch (IlThrown thrown)
        {
            throw Threw(thrown);
        }
        catch (IlRefusal refusal)
        {
            string called = getter?.DisplayName ?? $"{made.TypeName}.{name}";
            string where = refusal.Method is { } inner && inner != called ? $" in {inner}" : "";
            string reason = $"{refusal.Reason}{where}; it is called on a {made.TypeName} the interpreter made";
            if (context.CallsRefused) throw new CallRefusedException($"{called} ({reason})");
            throw new EvalException($"cannot run {called} ({reason}), which func-eval cannot run on a value the debuggee does not hold");
        }
    }

    /// <summary>The instance getter of a property by name, from the type itself down its bases (the most derived first).</summary>
    private static IlMethod? InstanceGetter(IlResolver resolver, IlNamed type, string name)
    {
        IlNamed? level = type;
        for (int depth = 0; level is not null && depth < 32; depth++)
        {
            if (resolver.MethodsNamed(level, "get_" + name).FirstOrDefault(m => !m.IsStatic && m.Parameters.Count == 0) is { } getter)
                return getter;
            level = resolver.BaseOf(level) is { } baseType ? resolver.AsNamed(baseType) : null;
        }
        return null;
    }

    private static IlMethod MethodOf(IlMachine machine, ICorDebugFunction function, IReadOnlyList<ICorDebugType> typeArguments)
    {
        if (function.GetModule(out var module) < 0 || function.GetToken(out int token) < 0) throw new IlRefusal("cannot identify the method");
        string path = DebuggerEngine.ModuleName(module);
        var md = ModuleMetadata.Open(path);
        int typeToken = md.DeclaringTypeOfMethod(token);
        int arity = IlResolver.Reader(path).GetTypeDefinition(System.Reflection.Metadata.Ecma335.MetadataTokens.TypeDefinitionHandle(typeToken & 0xFFFFFF))
            .GetGenericParameters().Count;
        var types = typeArguments.Select(machine.Debuggee.TypeOf).ToList();
        IlType owner = machine.Resolver.Named(path, typeToken, types.Take(arity).ToList());
        IlNamed declaring = machine.Resolver.AsNamed(owner);
        return machine.Resolver.Method(declaring, token, types.Skip(arity).ToList());
    }

    /// <summary>`this`: an object as is; a struct's method gets a (read-only) pointer to the debuggee's struct.</summary>
    private static object? Receiver(IlMachine machine, IlMethod method, ICorDebugValue? self)
    {
        if (self is null) throw new IlRefusal("has no receiver");
        object? value = machine.Debuggee.Read(self);
        if (!method.DeclaringType.IsValueType) return value ?? throw IlErrors.NullReference();
        if (value is DebuggeeObject boxed) value = machine.Debuggee.Unbox(boxed);
        return new DebuggeeRef(value, "the debuggee struct the method was called on");
    }

    private static object? FromEvaluator(IlMachine machine, object? value) => value switch
    {
        null => null,
        RemoteValue remote => machine.Debuggee.Read(remote.Value),
        string or decimal => value,
        EnumValue e => e.Number is >= int.MinValue and <= int.MaxValue ? (int)e.Number : e.Number,
        MadeValue made => IlValue.CopyIfStruct(made.Held),
        bool or char or sbyte or byte or short or ushort or int or uint or long or ulong or float or double or nint or nuint => IlValue.ToStack(value),
        _ => throw new IlRefusal($"is passed {Display.RuntimeTypeName(value)}, which the adapter computed"),
    };
}
