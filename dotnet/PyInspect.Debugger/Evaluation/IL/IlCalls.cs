// Where the evaluator hands a call to the interpreter instead of func-eval: read-only
// evaluations (and breakpoint conditions, which fall back to func-eval) interpret the
// method's IL against memory. Answers the result, the exception the code threw, or (in a
// read-only evaluation) the refusal naming the method and the reason.
using System.Runtime.CompilerServices;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Evaluation.IL;

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
            result = ToEvaluator(machine.Run(method, [.. args]), method.ReturnType);
            HitProfile.Add("il: run", running);
            return true;
        }
        catch (IlThrown thrown)
        {
            throw new EvalException($"the call threw {thrown.TypeName}: {thrown.Message}");
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
        IlNamed declaring = owner as IlNamed ?? machine.Resolver.PrimitiveAsNamed((IlPrimitive)owner);
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
        bool or char or sbyte or byte or short or ushort or int or uint or long or ulong or float or double or nint or nuint => IlValue.ToStack(value),
        _ => throw new IlRefusal($"is passed {Types.RuntimeTypeName(value)}, which the adapter computed"),
    };

    private static object? ToEvaluator(object? value, IlType returnType)
    {
        if (returnType is IlPrimitive { ElementType: CorElementType.Void }) return null;
        if (returnType is IlPrimitive { IsValueType: true }) return IlValue.ToClr(value, returnType);
        if (returnType is IlNamed { Kind: IlTypeKind.Enum } enumType) return Enum(enumType, value);
        return value switch
        {
            null or string or decimal => value,
            DebuggeeObject obj => new RemoteValue(obj.Reference),
            DebuggeeStruct s => new RemoteValue(s.Value),
            LocalBox { Type: IlPrimitive primitive } box => IlValue.ToClr(box.Value, primitive),
            LocalBox { Type: IlNamed { Kind: IlTypeKind.Enum } boxedEnum } box => Enum(boxedEnum, box.Value),
            LocalBox { Value: decimal d } => d,
            _ => throw new IlRefusal($"returns {IlValue.Describe(value)} made by the interpreter, which the debuggee does not hold"),
        };
    }

    private static EnumValue Enum(IlNamed type, object? value) =>
        EvalValues.MakeEnum(IlResolver.DisplayName(type.Name), IlValue.AsLong(value), ModuleMetadata.Open(type.ModulePath).GetEnumMembers(type.Token));
}
