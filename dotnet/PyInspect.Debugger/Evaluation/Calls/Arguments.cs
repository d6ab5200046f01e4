// Arguments of calls into the debuggee: does an argument fit a parameter (metadata type
// name), and the debuggee value to pass (new strings and primitives created there).
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;
using PyInspect.Debugger.Evaluation.Linq;

namespace PyInspect.Debugger.Evaluation.Calls;

public static class Arguments
{
    private static readonly Dictionary<string, (Type Type, int ElementType)> Primitives = new(StringComparer.Ordinal)
    {
        ["System.Boolean"] = (typeof(bool), CorElementType.Boolean), ["System.Char"] = (typeof(char), CorElementType.Char),
        ["System.SByte"] = (typeof(sbyte), CorElementType.I1), ["System.Byte"] = (typeof(byte), CorElementType.U1),
        ["System.Int16"] = (typeof(short), CorElementType.I2), ["System.UInt16"] = (typeof(ushort), CorElementType.U2),
        ["System.Int32"] = (typeof(int), CorElementType.I4), ["System.UInt32"] = (typeof(uint), CorElementType.U4),
        ["System.Int64"] = (typeof(long), CorElementType.I8), ["System.UInt64"] = (typeof(ulong), CorElementType.U8),
        ["System.Single"] = (typeof(float), CorElementType.R4), ["System.Double"] = (typeof(double), CorElementType.R8),
    };

    private static readonly string[] ArrayInterfaces =
    [
        "System.Collections.Generic.IEnumerable`1", "System.Collections.Generic.IList`1", "System.Collections.Generic.ICollection`1",
        "System.Collections.Generic.IReadOnlyList`1", "System.Collections.Generic.IReadOnlyCollection`1",
        "System.Collections.IEnumerable", "System.Collections.IList", "System.Collections.ICollection",
    ];

    /// <summary>A debuggee object fits a parameter of its own type, a base, an interface it implements,
    /// object, or a generic parameter; never anything else (a wrong type would corrupt the call).</summary>
    private static int FitObject(string parameter, RemoteValue remote)
    {
        if (parameter.StartsWith('!')) return 1;
        if (parameter == "System.Object") return 1;
        string plain = parameter.Contains('<') ? parameter[..parameter.IndexOf('<')] : parameter.TrimEnd('&');
        var chain = Types.TypeChain(remote.Value).ToList();
        if (chain.Contains(plain)) return ElementsFit(parameter, remote) ? 3 : -1;
        if (chain.Contains("System.Array"))
            return (ArrayInterfaces.Contains(plain) && ElementsFit(parameter, remote)) || CSharpArrayName(parameter) == chain[0] ? 2 : -1;
        return -1;
    }

    /// <summary>`IEnumerable&lt;string&gt;` takes a collection of strings only; `IEnumerable&lt;!!0&gt;` any.</summary>
    private static bool ElementsFit(string parameter, RemoteValue remote)
    {
        int angle = parameter.IndexOf('<');
        if (angle < 0) return true;
        string inner = parameter[(angle + 1)..^1];
        if (inner.StartsWith('!') || inner.Contains(',') || inner.Contains('<')) return true;
        return CSharpArrayName(inner) == Sequences.ElementTypeName(remote);
    }

    /// <summary>Class type parameters (!0, !1) replaced by the receiver's type arguments' metadata names.</summary>
    public static IReadOnlyList<string> Instantiate(IReadOnlyList<string> parameters, IReadOnlyList<ICorDebugType>? typeArguments)
    {
        if (typeArguments is null || typeArguments.Count == 0) return parameters;
        return [.. parameters.Select(p => p.Length > 1 && p[0] == '!' && p[1] != '!' && int.TryParse(p[1..], out int k) && k < typeArguments.Count
            && MetadataName(typeArguments[k]) is { } name ? name : p)];
    }

    /// <summary>Method type parameters (!!0, !!1) replaced by type arguments given explicitly.</summary>
    public static IReadOnlyList<string> InstantiateMethod(IReadOnlyList<string> parameters, IReadOnlyList<ICorDebugType>? methodTypes)
    {
        if (methodTypes is null || methodTypes.Count == 0) return parameters;
        return [.. parameters.Select(p => p.StartsWith("!!", StringComparison.Ordinal) && int.TryParse(p[2..], out int k) && k < methodTypes.Count
            && MetadataName(methodTypes[k]) is { } name ? name : p)];
    }

    private static string? MetadataName(ICorDebugType type)
    {
        if (type.GetType(out int elementType) < 0) return null;
        if (elementType == CorElementType.String) return "System.String";
        if (elementType == CorElementType.Object) return "System.Object";
        foreach (var (name, primitive) in Primitives)
            if (primitive.ElementType == elementType) return name;
        return elementType is CorElementType.Class or CorElementType.ValueType && type.GetClass(out var cls) >= 0
            && TypeNames.TypeArguments(type).Count == 0 ? TypeNames.DeclaredName(cls) : null;
    }

    /// <summary>"System.Int32[]" as C# writes it ("int[]"), to compare with an array's runtime type name.</summary>
    private static string CSharpArrayName(string parameter)
    {
        int bracket = parameter.IndexOf('[');
        if (bracket < 0) return parameter;
        string element = parameter[..bracket];
        string? alias = Display.LocalTypeName(Operators.PrimitiveType(element) is { } type ? System.Activator.CreateInstance(type) : null);
        return (Operators.PrimitiveType(element) is null ? element == "System.String" ? "string" : element : alias) + parameter[bracket..];
    }

    /// <summary>The metadata name of a local primitive's own type, for a generic parameter it instantiates.</summary>
    private static string? OwnPrimitive(object value) =>
        value.GetType().FullName is { } name && Primitives.ContainsKey(name) ? name : null;

    /// <summary>How well the arguments fit: -1 no, higher is better (exact primitive types count most).</summary>
    public static int Score(IReadOnlyList<string> parameters, IReadOnlyList<object?> arguments)
    {
        int score = 0;
        for (int i = 0; i < arguments.Count; i++)
        {
            int fit = Fit(parameters[i], arguments[i]);
            if (fit < 0) return -1;
            score += fit;
        }
        return score;
    }

    private static int Fit(string parameter, object? argument)
    {
        bool generic = parameter.StartsWith('!');
        switch (argument)
        {
            case null:
                return Primitives.ContainsKey(parameter) ? -1 : 1;
            case string:
                return parameter == "System.String" ? 3 : parameter == "System.Object" || generic ? 1 : -1;
            case EnumValue e:
                return parameter.Replace('+', '.') == e.TypeName ? 3 : -1;
            case RemoteValue remote:
                return FitObject(parameter, remote);
            case decimal:
                return parameter == "System.Decimal" ? 3 : -1;
            case int or long or short or sbyte or byte or ushort or uint when parameter == "System.Decimal":
                return 1;
            default:
                if (generic) return OwnPrimitive(argument) is null ? -1 : 1;
                if (!Primitives.TryGetValue(parameter, out var target)) return -1;
                if (argument.GetType() == target.Type) return 3;
                return ImplicitlyConverts(argument, target.Type) ? 2 : -1;
        }
    }

    private static bool ImplicitlyConverts(object value, Type target)
    {
        try
        {
            dynamic d = value;
            object? converted = Type.GetTypeCode(target) switch
            {
                TypeCode.Int64 => (long)d, TypeCode.Double => (double)d, TypeCode.Single => (float)d,
                TypeCode.Int32 when value is short or sbyte or byte or ushort or char => (int)d,
                _ => null,
            };
            return converted is not null;
        }
        catch (Microsoft.CSharp.RuntimeBinder.RuntimeBinderException)
        {
            return false;
        }
    }

    /// <summary>The value to pass for a parameter: debuggee objects as they are, strings and primitives created there.</summary>
    public static ICorDebugValue ToDebuggee(EvalContext context, object? argument, string parameter)
    {
        switch (argument)
        {
            case RemoteValue remote:
                return remote.Value;
            case string text:
                return context.NewString(text);
            case null:
                throw new EvalException("passing null to a debuggee method is not supported");
            case EnumValue e:
                return context.NewPrimitive(CorElementType.I4, BitConverter.GetBytes((int)e.Number));
        }
        if (parameter.StartsWith('!') && OwnPrimitive(argument) is { } own) parameter = own;
        if (parameter == "System.Decimal") return NewDecimal(context, System.Convert.ToDecimal(argument, System.Globalization.CultureInfo.InvariantCulture));
        if (!Primitives.TryGetValue(parameter, out var target))
            throw new EvalException($"cannot pass {Display.LocalTypeName(argument)} as {parameter} (boxing is not supported)");
        object converted = Operators.Convert(argument, target.Type, parameter)!;
        return context.NewPrimitive(target.ElementType, Bytes(converted));
    }

    /// <summary>A decimal made in the debuggee exactly: (decimal)unscaled / (decimal)10^scale, by its own operators.</summary>
    private static ICorDebugValue NewDecimal(EvalContext context, decimal value)
    {
        if (Types.Resolve("System.Decimal", context) is not { } type || ModuleMetadata.TryOpen(type.Module.Path) is not { } md
            || type.Module.Module.GetClassFromToken(type.Token, out var cls) < 0 || cls.GetModule(out var module) < 0)
            throw new EvalException("cannot find System.Decimal to pass a decimal");
        int scale = value.Scale;
        decimal unscaled = value * (decimal)Math.Pow(10, scale);
        if (unscaled is > long.MaxValue or < long.MinValue || scale > 18)
            throw new EvalException($"cannot pass the decimal {value}: more than 18 digits");
        ICorDebugValue Operator(string name, IReadOnlyList<string> parameters, IReadOnlyList<ICorDebugValue> arguments)
        {
            var method = md.Methods(type.Token, name).FirstOrDefault(m => m.ParameterTypes.SequenceEqual(parameters) && m.ReturnType == "System.Decimal")
                ?? throw new EvalException($"cannot find decimal.{name}");
            if (module.GetFunctionFromToken(method.Token, out var function) < 0) throw new EvalException($"cannot find decimal.{name}");
            return context.Call(function, [], arguments) ?? throw new EvalException($"decimal.{name} returned nothing");
        }
        ICorDebugValue Whole(long number) =>
            Operator("op_Implicit", ["System.Int64"], [context.NewPrimitive(CorElementType.I8, BitConverter.GetBytes(number))]);
        ICorDebugValue numerator = Whole((long)unscaled);
        return scale == 0 ? numerator : Operator("op_Division", ["System.Decimal", "System.Decimal"], [numerator, Whole((long)Math.Pow(10, scale))]);
    }

    /// <summary>A primitive's bytes as the runtime stores it.</summary>
    public static byte[] Bytes(object value) => value switch
    {
        nint n => BitConverter.GetBytes((long)n), nuint u => BitConverter.GetBytes((ulong)u),
        bool b => [(byte)(b ? 1 : 0)], char c => BitConverter.GetBytes(c),
        sbyte sb => [(byte)sb], byte b8 => [b8],
        short s => BitConverter.GetBytes(s), ushort us => BitConverter.GetBytes(us),
        int i => BitConverter.GetBytes(i), uint ui => BitConverter.GetBytes(ui),
        long l => BitConverter.GetBytes(l), ulong ul => BitConverter.GetBytes(ul),
        float f => BitConverter.GetBytes(f), double d => BitConverter.GetBytes(d),
        _ => throw new EvalException($"cannot pass {value.GetType().Name} to the debuggee"),
    };

    /// <summary>Method type arguments from arguments whose parameter is `!!k` itself or `Something&lt;!!k&gt;`.</summary>
    public static IReadOnlyList<ICorDebugType> InferMethodTypes(EvalMethod method, IReadOnlyList<ICorDebugValue> arguments)
    {
        var inferred = new ICorDebugType?[method.GenericArity];
        for (int i = 0; i < arguments.Count && i < method.ParameterTypes.Count; i++)
        {
            if (arguments[i] is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0) continue;
            string parameter = method.ParameterTypes[i];
            if (parameter.StartsWith("!!", StringComparison.Ordinal) && int.TryParse(parameter[2..], out int k) && k < inferred.Length)
                inferred[k] ??= type;
            else if (parameter.EndsWith("<!!0>", StringComparison.Ordinal) && inferred.Length > 0)
                inferred[0] ??= ElementType(type);
        }
        if (inferred.Any(t => t is null))
            throw new EvalException($"cannot infer the type arguments of '{method.Name}' from its arguments");
        return inferred!;
    }

    private static ICorDebugType? ElementType(ICorDebugType type)
    {
        if (type.GetType(out int elementType) >= 0 && elementType is CorElementType.SzArray or CorElementType.Array)
            return type.GetFirstTypeParameter(out var element) >= 0 ? element : null;
        var arguments = TypeNames.TypeArguments(type);
        return arguments.Count == 1 ? arguments[0] : null;
    }
}
