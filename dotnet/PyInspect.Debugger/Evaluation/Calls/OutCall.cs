// The debuggee side of a call with out/ref arguments: each by-reference parameter gets a
// home in the debuggee's heap (the only element of a one-element array made there, held by
// a handle), the element is passed by reference, and what the callee wrote is read back.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;

namespace PyInspect.Debugger.Evaluation.Calls;

internal static class OutCall
{
    public static (object? Result, List<(OutSlot, object?)> Outs) Run(Interpreter interpreter, ICorDebugClass cls, EvalMethod method,
        IReadOnlyList<ICorDebugType> classTypes, ICorDebugValue? self, IReadOnlyList<string> parameters, List<object?> values, string text)
    {
        EvalContext context = interpreter.Context;
        ICorDebugFunction function = Invocation.FunctionOf(interpreter, cls, method);
        if (method.GenericArity > 0)
            throw new EvalException($"cannot evaluate '{text}': out/ref arguments of generic methods are not supported");
        // Homes first (each is a func-eval), then the other arguments, then the elements, read last so no run neuters them.
        var homes = new Dictionary<int, ICorDebugValue>();
        for (int i = 0; i < values.Count; i++)
            if (values[i] is OutSlot) homes[i] = NewHome(context, ElementType(context, parameters[i], classTypes, text));
        ICorDebugValue? receiver = self is null ? null : context.Pin(self);
        var passed = new ICorDebugValue?[values.Count];
        for (int i = 0; i < values.Count; i++)
            if (values[i] is not OutSlot)
                passed[i] = Arguments.ToDebuggee(context, values[i] is RemoteValue r ? new RemoteValue(context.Pin(r.Value)) : values[i], parameters[i]);
        foreach (var (i, home) in homes)
        {
            ICorDebugValue element = Element(home);
            if (values[i] is OutSlot { IsRef: true } slot) WriteInitial(element, slot.Initial, text);
            passed[i] = element;
        }
        var arguments = new List<ICorDebugValue>();
        if (receiver is not null) arguments.Add(receiver);
        arguments.AddRange(passed!);
        ICorDebugValue? result = context.Call(function, classTypes, arguments);
        object? answer = result is null ? null : interpreter.Stable(new RemoteValue(result));
        var outs = homes.Select(h => ((OutSlot)values[h.Key]!, interpreter.Stable(new RemoteValue(Element(h.Value))))).ToList();
        return (answer, outs);
    }

    /// <summary>A one-element array of the type, made by GC.AllocateArray&lt;T&gt;(1) (ICorDebugEval's own
    /// NewParameterizedArray makes arrays of classes and primitives only, not of decimals or structs), held by a handle.</summary>
    private static ICorDebugValue NewHome(EvalContext context, ICorDebugType elementType)
    {
        const string missing = "cannot make a home for an out argument: System.GC.AllocateArray<T>(int, bool) is not found";
        TypeRef gc = Types.Resolve("System.GC", context) ?? throw new EvalException(missing);
        EvalMethod allocate = ModuleMetadata.TryOpen(gc.Module.Path)?.Methods(gc.Token, "AllocateArray")
            .FirstOrDefault(m => m.IsStatic && m.GenericArity == 1 && m.ParameterTypes is ["System.Int32", "System.Boolean"])
            ?? throw new EvalException(missing);
        if (gc.Module.Module.GetClassFromToken(gc.Token, out var cls) < 0 || cls.GetModule(out var module) < 0
            || module.GetFunctionFromToken(allocate.Token, out var function) < 0)
            throw new EvalException(missing);
        ICorDebugValue length = context.NewPrimitive(CorElementType.I4, BitConverter.GetBytes(1));
        ICorDebugValue pinned = context.NewPrimitive(CorElementType.Boolean, [0]);
        return context.Pin(context.Call(function, [elementType], [length, pinned]) ?? throw new EvalException(missing));
    }

    /// <summary>The type a by-reference parameter refers to: the receiver's type argument, or a non-generic type by name.</summary>
    private static ICorDebugType ElementType(EvalContext context, string parameter, IReadOnlyList<ICorDebugType> classTypes, string text)
    {
        string name = parameter.TrimEnd('&');
        if (name.StartsWith('!') && !name.StartsWith("!!", StringComparison.Ordinal) && int.TryParse(name[1..], out int k) && k < classTypes.Count)
            return classTypes[k];
        if (name.Contains('<') || name.Contains('[') || name.StartsWith('!'))
            throw new EvalException($"cannot evaluate '{text}': an out/ref parameter of type {name} is not supported");
        var syntax = Microsoft.CodeAnalysis.CSharp.SyntaxFactory.ParseTypeName(name.Replace('+', '.'));
        return Types.Instantiate(syntax, context).Instance;
    }

    /// <summary>The array's only element, read through its handle (valid after any run).</summary>
    private static ICorDebugValue Element(ICorDebugValue home) =>
        ValuePath.Dereference(home) is ICorDebugArrayValue array && array.GetElementAtPosition(0, out var element) >= 0
            ? element : throw new EvalException("cannot read the home of an out argument");

    /// <summary>A ref argument's value going in: numbers, bools and chars (written into the home).</summary>
    private static unsafe void WriteInitial(ICorDebugValue element, object? initial, string text)
    {
        if (initial is null) return;
        if (element is not ICorDebugGenericValue generic || element.GetType(out int elementType) < 0
            || EvalValues.PrimitiveSize(elementType) is not { } size)
            throw new EvalException($"cannot evaluate '{text}': ref arguments of numbers, bools and chars only");
        byte[] raw = EvalValues.FromBytes(elementType, new byte[size]) is { } zero
            ? Arguments.Bytes(Operators.Convert(initial, zero.GetType(), text)!) : throw new EvalException($"cannot evaluate '{text}': unsupported ref value");
        fixed (byte* bytes = raw)
            if (generic.SetValue((nint)bytes) < 0) throw new EvalException($"cannot evaluate '{text}': the ref value could not be written");
    }
}
