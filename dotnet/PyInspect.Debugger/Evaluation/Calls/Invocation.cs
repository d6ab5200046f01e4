// Method calls: methods of strings, numbers and System.Math compute here; getters and methods
// the interpreter can read run by interpretation; every other method runs in the debuggee
// through func-eval, with overloads picked by argument count and kinds.
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using ModuleMetadata = PyInspect.Debugger.Symbols.ModuleMetadata;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;
using PyInspect.Debugger.Evaluation.Getters;

namespace PyInspect.Debugger.Evaluation.Calls;

public static class Invocation
{
    internal static readonly HashSet<string> LocalStaticTypes = new(StringComparer.Ordinal)
    {
        "System.Math", "System.MathF", "System.String", "System.Char", "System.Boolean", "System.Byte", "System.SByte", "System.Int16",
        "System.UInt16", "System.Int32", "System.UInt32", "System.Int64", "System.UInt64", "System.Single", "System.Double", "System.Decimal",
    };

    /// <summary>A method of a string, number or enum, computed here (these are pure).</summary>
    public static object? CallLocal(object? target, string name, List<object?> arguments, string text)
    {
        if (target is null) throw new EvalException($"cannot call '{name}' on null (NullReferenceException) in '{text}'");
        if (target is EnumValue e && name == "ToString" && arguments.Count == 0) return e.Text;
        if (target is EnumValue flags && name == "HasFlag" && arguments is [EnumValue flag]) return (flags.Number & flag.Number) == flag.Number;
        if (target is RemoteValue or TypeRef or NamespaceRef or SequenceValue or PairValue or EnumValue or IComputedValue)
            throw new EvalException($"cannot call '{name}' on {Display.RuntimeTypeName(target)}");
        return Reflect(target.GetType(), target, name, arguments, text);
    }

    private static object? Reflect(Type type, object? target, string name, List<object?> arguments, string text)
    {
        var flags = BindingFlags.Public | BindingFlags.InvokeMethod | (target is null ? BindingFlags.Static : BindingFlags.Instance);
        try
        {
            return type.InvokeMember(name, flags, Type.DefaultBinder, target, arguments.ToArray(), System.Globalization.CultureInfo.InvariantCulture);
        }
        catch (TargetInvocationException thrown) when (thrown.InnerException is { } inner)
        {
            throw new EvalException($"'{text}' threw {inner.GetType().FullName}: {inner.Message}");
        }
        catch (Exception error) when (error is MissingMethodException or AmbiguousMatchException or ArgumentException)
        {
            throw new EvalException($"cannot evaluate '{text}': no method {type.Name}.{name} takes these {arguments.Count} argument(s)");
        }
    }

    public static object? CallStatic(Interpreter interpreter, TypeRef type, string name, List<object?> arguments, string text)
    {
        if (LocalStaticTypes.Contains(type.FullName) && arguments.Select(LocalArgument).ToList() is var locals
            && locals.All(a => a is not (RemoteValue or SequenceValue or PairValue or EnumValue)) && Type.GetType(type.FullName) is { } local)
            return Reflect(local, null, name, locals, text);
        var (md, cls) = ClassOf(type);
        var candidates = md.Methods(type.Token, name).Where(m => m.IsStatic && m.ParameterTypes.Count == arguments.Count);
        EvalMethod method = Pick(candidates, arguments) ?? throw new EvalException($"'{type.FullName}' has no static method '{name}' taking {arguments.Count} argument(s)");
        return Run(interpreter, cls, method, [], null, arguments);
    }

    /// <summary>A new object of the type by the constructor the arguments fit.</summary>
    public static ICorDebugValue Construct(Interpreter interpreter, TypeRef type, IReadOnlyList<ICorDebugType> typeArguments,
        List<object?> arguments, string text)
    {
        var (md, cls) = ClassOf(type);
        var candidates = md.Methods(type.Token, ".ctor").Where(m => !m.IsStatic && m.ParameterTypes.Count == arguments.Count);
        EvalMethod constructor = Pick(candidates, arguments, typeArguments)
            ?? throw new EvalException($"'{type.FullName}' has no constructor taking these {arguments.Count} argument(s)");
        if (cls.GetModule(out var module) < 0 || module.GetFunctionFromToken(constructor.Token, out var function) < 0)
            throw new EvalException($"cannot find the constructor of '{type.FullName}'");
        interpreter.Context.RefuseIfNoCalls(function);
        var values = DebuggeeArguments(interpreter, Arguments.Instantiate(constructor.ParameterTypes, typeArguments), arguments);
        return interpreter.Context.NewObject(function, typeArguments, values);
    }

    /// <summary>A generic static method with its type arguments given (Enumerable.Cast&lt;object&gt;).</summary>
    public static object? CallStaticGeneric(Interpreter interpreter, TypeRef type, string name, IReadOnlyList<ICorDebugType> methodTypes,
        List<object?> arguments, string text)
    {
        var (md, cls) = ClassOf(type);
        var candidates = md.Methods(type.Token, name)
            .Where(m => m.IsStatic && m.GenericArity == methodTypes.Count && m.ParameterTypes.Count == arguments.Count)
            .Select(m => m with { ParameterTypes = Arguments.InstantiateMethod(m.ParameterTypes, methodTypes) });
        EvalMethod method = Pick(candidates, arguments) ?? throw new EvalException($"'{type.FullName}' has no generic method '{name}' for '{text}'");
        return Run(interpreter, cls, method, [], null, arguments, methodTypes);
    }

    /// <summary>A sequence of local strings or numbers as a .NET array, for methods computed here.</summary>
    private static object? LocalArgument(object? argument)
    {
        if (argument is not SequenceValue sequence || sequence.Items.Any(i => i is RemoteValue or SequenceValue or PairValue or EnumValue))
            return argument;
        if (sequence.Items.All(i => i is string)) return sequence.Items.Cast<string>().ToArray();
        return sequence.Items.ToArray();
    }

    /// <summary>The type itself declares a static method of that name taking that many arguments.</summary>
    public static bool HasStaticMethod(TypeRef type, string name, int argumentCount) =>
        ModuleMetadata.TryOpen(type.Module.Path) is { } md
        && md.Methods(type.Token, name).Any(m => m.IsStatic && m.ParameterTypes.Count == argumentCount);

    public static bool HasMethod(RemoteValue target, string name, bool instanceOnly = false) =>
        ValuePath.Dereference(target.Value) is ICorDebugValue2 typed && typed.GetExactType(out var type) >= 0
        && Members.Levels(type).Any(l => l.Metadata.Methods(l.Token, name).Any(m => !instanceOnly || !m.IsStatic));

    /// <summary>An instance method of a debuggee object (the most derived override), or an extension method.</summary>
    public static object? CallMethod(Interpreter interpreter, RemoteValue target, string name, List<object?> arguments, string text)
    {
        ICorDebugValue? self = ValuePath.Dereference(target.Value);
        if (self is null) throw new EvalException($"cannot call '{name}' on null (NullReferenceException) in '{text}'");
        if (self is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0) throw new EvalException($"cannot read the type of the target of '{text}'");
        foreach (var (level, cls, md, token) in Members.Levels(type))
        {
            var candidates = md.Methods(token, name).Where(m => !m.IsStatic && m.ParameterTypes.Count == arguments.Count);
            if (Pick(candidates, arguments, Values.TypeNames.TypeArguments(level)) is { } method)
                return Run(interpreter, cls, method, Values.TypeNames.TypeArguments(level), interpreter.Context.Pin(target.Value), arguments);
        }
        if (TryExtension(interpreter, target, name, arguments, out object? result)) return result;
        throw new EvalException($"'{name}' is not a method of {Display.RuntimeTypeName(target)} taking {arguments.Count} argument(s)");
    }

    /// <summary>A string's, number's or enum's own method computed here; where it has none, an
    /// extension method of the loaded modules (`text.WordCount()`), run in the debuggee, as
    /// C# prefers an instance method and falls back to extensions.</summary>
    public static object? CallLocalOrExtension(Interpreter interpreter, object? target, string name, List<object?> arguments, string text)
    {
        EvalException noSuchMethod;
        try { return CallLocal(target, name, arguments, text); }
        catch (EvalException error) { noSuchMethod = error; }
        if (target is not null && TryExtension(interpreter, target, name, arguments, out object? result)) return result;
        throw noSuchMethod;
    }

    /// <summary>An extension method of a module with symbols whose first parameter takes the target.</summary>
    private static bool TryExtension(Interpreter interpreter, object target, string name, List<object?> arguments, out object? result)
    {
        foreach (var module in interpreter.Context.Modules.WithSymbols())
        {
            if (ModuleMetadata.TryOpen(module.Path) is not { } md) continue;
            foreach (var (typeToken, method) in md.ExtensionMethods(name))
            {
                var all = new List<object?> { target };
                all.AddRange(arguments);
                if (method.ParameterTypes.Count != all.Count || Pick([method], all) is null) continue;
                if (module.Module.GetClassFromToken(typeToken, out var cls) < 0) continue;
                result = Run(interpreter, cls, method with { IsStatic = true }, [], null, all);
                return true;
            }
        }
        result = null;
        return false;
    }

    public static object? CallIndexer(Interpreter interpreter, RemoteValue target, IReadOnlyList<object?> indices, string text) =>
        CallMethod(interpreter, target, "get_Item", [.. indices], $"{text}[...]");

    /// <summary>The first overload whose parameters accept the arguments (exact primitive types preferred).</summary>
    internal static EvalMethod? Pick(IEnumerable<EvalMethod> candidates, IReadOnlyList<object?> arguments,
        IReadOnlyList<ICorDebugType>? classTypeArguments = null) =>
        candidates.Select(m => (Method: m, Score: Arguments.Score(Arguments.Instantiate(m.ParameterTypes, classTypeArguments), arguments)))
            .Where(c => c.Score >= 0).OrderByDescending(c => c.Score).Select(c => c.Method).FirstOrDefault();

    /// <summary>The type's metadata and its class in the debuggee.</summary>
    internal static (ModuleMetadata Metadata, ICorDebugClass Class) ClassOf(TypeRef type) =>
        ModuleMetadata.TryOpen(type.Module.Path) is { } md && type.Module.Module.GetClassFromToken(type.Token, out var cls) >= 0
            ? (md, cls) : throw new EvalException($"cannot read the metadata of '{type.FullName}'");

    /// <summary>The values to pass for the parameters: objects first, held by handles (making
    /// strings and numbers runs code that would neuter them), then the rest made in the debuggee.</summary>
    private static List<ICorDebugValue> DebuggeeArguments(Interpreter interpreter, IReadOnlyList<string> parameters, List<object?> arguments)
    {
        var pinned = arguments.Select(a => a is RemoteValue r ? new RemoteValue(interpreter.Context.Pin(r.Value)) : a).ToList();
        return [.. pinned.Select((a, i) => Arguments.ToDebuggee(interpreter.Context, a, parameters[i]))];
    }

    /// <summary>The method's code in the debuggee, refused where the evaluation may not run code.</summary>
    internal static ICorDebugFunction FunctionOf(Interpreter interpreter, ICorDebugClass cls, EvalMethod method)
    {
        if (cls.GetModule(out var module) < 0 || module.GetFunctionFromToken(method.Token, out var function) < 0)
            throw new EvalException($"cannot find the code of '{method.Name}'");
        interpreter.Context.RefuseIfNoCalls(function);
        return function;
    }

    /// <summary>Calls a method; method type arguments are the explicit ones (their parameter
    /// types already instantiated) or inferred from the arguments.</summary>
    internal static object? Run(Interpreter interpreter, ICorDebugClass cls, EvalMethod method,
        IReadOnlyList<ICorDebugType> classTypeArguments, ICorDebugValue? self, List<object?> arguments,
        IReadOnlyList<ICorDebugType>? methodTypes = null)
    {
        if (cls.GetModule(out var module) < 0 || module.GetFunctionFromToken(method.Token, out var function) < 0)
            throw new EvalException($"cannot find the code of '{method.Name}'");
        var typeArguments = new List<ICorDebugType>(classTypeArguments);
        if (method.GenericArity > 0 && methodTypes is not null) typeArguments.AddRange(methodTypes);
        if ((method.GenericArity == 0 || methodTypes is not null)
            && IlCalls.TryRun(interpreter.Context, function, typeArguments, self, arguments, out object? interpreted))
            return interpreted;
        interpreter.Context.RefuseIfNoCalls(function);
        var values = new List<ICorDebugValue>();
        if (self is not null) values.Add(self);
        values.AddRange(DebuggeeArguments(interpreter, Arguments.Instantiate(method.ParameterTypes, classTypeArguments), arguments));
        if (method.GenericArity > 0 && methodTypes is null)
            typeArguments.AddRange(Arguments.InferMethodTypes(method, values.Skip(self is null ? 0 : 1).ToList()));
        ICorDebugValue? result = interpreter.Context.Call(function, typeArguments, values);
        return result is null ? null : new RemoteValue(result);
    }

    /// <summary>Text for interpolation holes and messages: objects via ToString() in the debuggee when possible.</summary>
    public static string AsText(object? value, Interpreter? interpreter)
    {
        if (value is RemoteValue remote && interpreter?.Context.Calls is not null)
        {
            try
            {
                if (EvalValues.Local(CallMethod(interpreter, remote, "ToString", [], "ToString")) is string text) return text;
            }
            catch (EvalException)
            {
                // Fall back to the type name below.
            }
        }
        return Display.Concat(value);
    }
}
