// The few methods the interpreter computes itself instead of interpreting: string members
// (their bodies are native or unsafe), Math and MathF, decimal arithmetic and comparisons,
// object's constructor, and CoreLib's resource strings (exception messages). Each is pure:
// the same answer in the adapter as in the debuggee. Culture-dependent ones are not here.
using System.Reflection;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public static class IlIntrinsics
{
    private static readonly HashSet<string> StringMembers = new(StringComparer.Ordinal)
    {
        "get_Length", "get_Chars", "Equals", "op_Equality", "op_Inequality", "IsNullOrEmpty", "IsNullOrWhiteSpace", "Concat",
        "Substring", "Contains", "StartsWith", "EndsWith", "IndexOf", "LastIndexOf", "Trim", "TrimStart", "TrimEnd",
        "ToUpperInvariant", "ToLowerInvariant", "Replace", "PadLeft", "PadRight", "CompareOrdinal", "Join", "Insert", "Remove",
    };

    /// <summary>String methods that compare by the current culture when given a string and no StringComparison.</summary>
    private static readonly HashSet<string> CultureSensitive = new(StringComparer.Ordinal) { "StartsWith", "EndsWith", "IndexOf", "LastIndexOf" };

    public static bool TryCall(IlMachine machine, IlMethod method, object?[] args, out object? result)
    {
        if (IlTypeValues.TryCall(machine, method, args, out result))
        {
            result = IlValue.ToStack(result);
            return true;
        }
        switch (method.DeclaringType.Name)
        {
            case "System.Object" when method.Name == ".ctor":
                return true;
            case var number when method.Name == "ToString" && !method.IsStatic && method.Parameters.Count > 0
                && method.Parameters[^1].Key == "System.IFormatProvider" && (IlPrimitive.ElementTypeOf(number) is not null || number == "System.Decimal"):
                result = InvariantText(machine, method, args);
                return true;
            case IlInterpolation.HandlerType:
                result = IlInterpolation.Call(machine, method, args);
                return true;
            case "System.String" when method.Name is "GetNonRandomizedHashCode" or "GetNonRandomizedHashCodeOrdinalIgnoreCase" && args is [string self]:
                // Dictionary<string, ...>'s default hash: not seeded per process (unlike string.GetHashCode), the same in the adapter.
                result = typeof(string).GetMethod(method.Name, BindingFlags.NonPublic | BindingFlags.Instance, [])?.Invoke(self, [])
                    ?? throw new IlRefusal($"cannot compute {method.DisplayName} in the adapter");
                return true;
            case "System.String" when StringMembers.Contains(method.Name):
                if (CultureSensitive.Contains(method.Name) && method.Parameters.Any(p => p.SameAs(IlPrimitive.String))
                    && !method.Parameters.Any(p => p.Key == "System.StringComparison"))
                    throw new IlRefusal($"compares strings by the current culture ({method.DisplayName})");
                if (!method.IsStatic && args[0] is null) throw IlErrors.NullReference();
                return TryReflect(typeof(string), method, args, out result);
            case "System.Char" when method.IsStatic && (method.Name.StartsWith("Is", StringComparison.Ordinal)
                || method.Name is "ToUpperInvariant" or "ToLowerInvariant" or "GetNumericValue"):
                return TryReflect(typeof(char), method, args, out result);
            case "System.Environment" when method.Name == "get_CurrentManagedThreadId":
                result = machine.Debuggee.ManagedThreadId();
                return true;
            case "System.Math":
                return TryReflect(typeof(Math), method, args, out result);
            case "System.MathF":
                return TryReflect(typeof(MathF), method, args, out result);
            case "System.Decimal" when method.Name is not ("ToString" or "Parse" or "TryParse" or "TryFormat"):
                return TryReflect(typeof(decimal), method, args.Select(a => a is IlRef r ? r.Get() : a).ToArray(), out result);
            case "System.SR" when method.Name == "GetResourceString" && args is [string key]:
                result = typeof(object).Assembly.GetType("System.SR")?.GetMethod("GetResourceString", BindingFlags.NonPublic | BindingFlags.Static,
                    [typeof(string)])?.Invoke(null, [key]);
                return result is not null;
            case "System.Runtime.CompilerServices.RuntimeHelpers" when method.Name == "InitializeArray" && args is [LocalArray array, FieldToken data]:
                InitializeArray(array, data.Field);
                return true;
            case "System.Runtime.CompilerServices.Unsafe":
                return TryUnsafe(method, args, out result);
            case "System.Runtime.InteropServices.MemoryMarshal" when method.Name == "GetArrayDataReference" && args.Length == 1:
                // A reference to element 0 (the JIT's own implementation; the IL only calls itself).
                result = args[0] switch
                {
                    null => throw IlErrors.NullReference(),
                    LocalArray array => new ElementRef(array, 0),
                    DebuggeeObject array when machine.RuntimeType(array) is IlArray { Rank: 1 } => new DebuggeeElementRef(machine.Debuggee, array, 0),
                    var other => throw new IlRefusal($"takes the data reference of {IlValue.Describe(other)}"),
                };
                return true;
            case "System.Runtime.CompilerServices.RuntimeHelpers" when method.Name == "IsReferenceOrContainsReferences" && method.MethodArguments.Count == 1:
                IlType type = method.MethodArguments[0];
                if (type is IlNamed { Kind: IlTypeKind.Struct }) return false;
                result = type.IsValueType ? 0 : 1;
                return true;
        }
        return false;
    }

    /// <summary>A number's ToString(format, provider) where the provider is the debuggee's CultureInfo.InvariantCulture
    /// (its name is ""): the same text in the adapter. Any other culture is refused.</summary>
    private static string InvariantText(IlMachine machine, IlMethod method, object?[] args)
    {
        if (args[^1] is not DebuggeeObject provider || machine.RuntimeType(provider) is not IlNamed { Name: "System.Globalization.CultureInfo" } culture
            || machine.Resolver.InstanceFields(culture).FirstOrDefault(f => f.Name == "_name") is not { } name
            || machine.Debuggee.Field(provider, name) is not "")
            throw new IlRefusal($"formats a number by a culture other than the invariant one ({method.DisplayName})");
        string? format = method.Parameters.Count == 2 ? args[1] as string ?? (args[1] is null ? null : throw new IlRefusal("formats with a non-string format")) : null;
        object? self = args[0] is IlRef pointer ? pointer.Get() : args[0];
        IlType type = method.DeclaringType.Name == "System.Decimal" ? method.DeclaringType : new IlPrimitive(IlPrimitive.ElementTypeOf(method.DeclaringType.Name)!.Value);
        object? value = type is IlPrimitive ? IlValue.ToClr(self, type) : self;
        if (value is not IFormattable formattable) throw new IlRefusal($"formats {IlValue.Describe(self)}");
        return (string)Invoke(() => formattable.ToString(format, System.Globalization.CultureInfo.InvariantCulture))!;
    }

    /// <summary>`new[] { 1, 2, 3 }`: the elements from the field's static data in the module file.</summary>
    private static void InitializeArray(LocalArray array, IlField field)
    {
        if (array.Element is not IlPrimitive { IsValueType: true } element || EvalValues.PrimitiveSize(element.ElementType) is not int size)
            throw new IlRefusal($"initializes an array of {array.Element.Key} from static data");
        var md = Symbols.ModuleMetadata.Open(field.DeclaringType.ModulePath);
        int rva = md.Reader.GetFieldDefinition(System.Reflection.Metadata.Ecma335.MetadataTokens.FieldDefinitionHandle(field.Token & 0xFFFFFF))
            .GetRelativeVirtualAddress();
        if (rva == 0) throw new IlRefusal("initializes an array from a field without static data");
        var bytes = md.PE.GetSectionData(rva).GetContent(0, array.Items.Length * size);
        var raw = bytes.AsSpan();
        for (int i = 0; i < array.Items.Length; i++)
            array.Items[i] = IlValue.ToStack(EvalValues.FromBytes(element.ElementType, raw.Slice(i * size, size)));
    }

    /// <summary>The reinterpretations of Unsafe that change nothing the interpreter holds (its IL throws: the JIT implements it):
    /// a reference or a pointer passed through as is, the null pointer and its test; and arithmetic by whole elements on a
    /// pointer into an array (a span's reference). Any other pointer arithmetic is refused.</summary>
    private static bool TryUnsafe(IlMethod method, object?[] args, out object? result)
    {
        result = null;
        switch (method.Name)
        {
            case "As" when args.Length == 1 && (method.MethodArguments.Count == 1 || args[0] is IlRef):  // As<T>(object), As<TFrom,TTo>(ref TFrom)
            case "AsRef" when args.Length == 1 && args[0] is IlRef:
                result = args[0];
                return true;
            case "Add" or "Subtract" when args is [IArrayElementRef element, _] && method.Parameters[0] is IlPointer { Managed: true } && method.Parameters[1] is IlPrimitive:
                long by = IlValue.AsLong(args[1]);
                result = element.Moved(method.Name == "Add" ? by : -by);
                return true;
            case "AreSame" when args is [IArrayElementRef left, IArrayElementRef right]:
                result = left.SameAs(right) ? 1 : 0;
                return true;
            case "NullRef" when args.Length == 0:
                result = NullPointer.Instance;
                return true;
            case "IsNullRef" when args.Length == 1:
                result = args[0] is NullPointer ? 1 : args[0] is IlRef ? 0 : throw new IlRefusal($"tests {IlValue.Describe(args[0])} as a pointer");
                return true;
        }
        return false;
    }

    /// <summary>decimal's constructors (new decimal(int) and the like), computed here.</summary>
    public static bool TryConstruct(IlMethod constructor, object?[] args, out object? made)
    {
        made = null;
        if (constructor.DeclaringType.Name != "System.Decimal") return false;
        if (constructor.Parameters.Select(ClrType).ToArray() is not { } types || types.Any(t => t is null)) return false;
        if (Reflected.GetOrAdd((typeof(decimal), constructor.ModulePath, constructor.Token), _ => typeof(decimal).GetConstructor(types!))
            is not ConstructorInfo info)
            return false;
        made = Invoke(() => info.Invoke(Convert(args, constructor.Parameters, types!)));
        return true;
    }

    /// <summary>The .NET member an intrinsic method computes by, by CLR owner and the method's definition (the owners'
    /// methods matched are not generic, so a definition has one): found once, not per call (a scan of the owner's methods).</summary>
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<(Type Owner, string Module, int Token), MethodBase?> Reflected = new();

    private static bool TryReflect(Type owner, IlMethod method, object?[] args, out object? result)
    {
        result = null;
        Type?[] types = [.. method.Parameters.Select(ClrType)];
        Type? returns = method.ReturnType is IlPrimitive { ElementType: CorElementType.Void } ? typeof(void) : ClrType(method.ReturnType);
        if (returns is null || types.Any(t => t is null)) return false;
        if (Reflected.GetOrAdd((owner, method.ModulePath, method.Token), _ => owner.GetMethods(BindingFlags.Public | BindingFlags.Static | BindingFlags.Instance)
            .FirstOrDefault(m => m.Name == method.Name && m.IsStatic == method.IsStatic && !m.IsGenericMethodDefinition && m.ReturnType == returns
                && m.GetParameters().Select(p => p.ParameterType).SequenceEqual(types!))) is not MethodInfo info)
            return false;
        object?[] parameters = method.IsStatic ? args : args[1..];
        object? self = method.IsStatic ? null : ConvertOne(args[0], owner == typeof(string) ? IlPrimitive.String : new IlPrimitive(CorElementType.Object), owner);
        object?[] converted = Convert(parameters, method.Parameters, types!);
        object? value = Invoke(() => info.Invoke(self, converted));
        result = IlValue.ToStack(value);
        return true;
    }

    private static object? Invoke(Func<object?> call)
    {
        try { return call(); }
        catch (TargetInvocationException thrown) when (thrown.InnerException is { } inner)
        {
            throw new IlThrown(inner.GetType().FullName ?? inner.GetType().Name, inner.Message);
        }
        catch (Exception thrown) when (thrown is FormatException or ArgumentException or OverflowException or DivideByZeroException)
        {
            throw new IlThrown(thrown.GetType().FullName ?? thrown.GetType().Name, thrown.Message);
        }
    }

    private static object?[] Convert(object?[] args, IReadOnlyList<IlType> parameters, Type[] types) =>
        [.. args.Select((a, i) => ConvertOne(a, parameters[i], types[i]))];

    private static object? ConvertOne(object? value, IlType type, Type clr)
    {
        if (clr == typeof(decimal)) return value is decimal d ? d : throw new IlRefusal($"passes {IlValue.Describe(value)} as a decimal");
        if (clr.IsEnum)
        {
            object number = Enum.ToObject(clr, IlValue.AsLong(value));
            if (clr == typeof(StringComparison) && (StringComparison)number is not (StringComparison.Ordinal or StringComparison.OrdinalIgnoreCase))
                throw new IlRefusal("compares strings by a culture");
            return number;
        }
        if (clr == typeof(string)) return value is null or string ? value : throw new IlRefusal($"passes {IlValue.Describe(value)} as a string");
        if (clr == typeof(object) || clr == typeof(decimal))
            return value is null or string or decimal ? value : throw new IlRefusal($"passes {IlValue.Describe(value)} where an object is expected");
        if (clr == typeof(string[]) || clr == typeof(object[]))
            return value is LocalArray array && array.Items.All(i => i is null or string)
                ? (clr == typeof(string[]) ? array.Items.Cast<string?>().ToArray() : array.Items.ToArray())
                : throw new IlRefusal("passes an array that is not of strings");
        return IlValue.ToClr(value, type);
    }

    /// <summary>The adapter's own type for a parameter type, where intrinsics can pass it.</summary>
    private static Type? ClrType(IlType type) => type switch
    {
        IlPrimitive { ElementType: CorElementType.Void } => null,
        IlPrimitive p => Type.GetType(p.Key),
        IlNamed { Name: "System.Decimal" } => typeof(decimal),
        IlNamed { Name: "System.StringComparison" } => typeof(StringComparison),
        IlNamed { Name: "System.MidpointRounding" } => typeof(MidpointRounding),
        IlArray { Element: IlPrimitive { ElementType: CorElementType.String }, Rank: 1 } => typeof(string[]),
        IlArray { Element: IlPrimitive { ElementType: CorElementType.Object }, Rank: 1 } => typeof(object[]),
        _ => null,
    };
}
