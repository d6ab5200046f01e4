// `typeof(T)` without the debuggee's Type objects: ldtoken of a type pushes a TypeHandleValue,
// Type.GetTypeFromHandle makes it a TypeValue, and the comparisons generic code makes of them
// (`typeof(TFeature) == typeof(IHttpRequestFeature)`, `typeof(TKey).IsValueType`,
// `obj.GetType() == typeof(X)`) are answered from the types themselves. Anything that would
// need a real System.RuntimeType object (hashing it, its name, returning it) is refused.
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public static class IlTypeValues
{
    private static readonly HashSet<string> TypeClasses = new(StringComparer.Ordinal)
    {
        "System.Type", "System.RuntimeType", "System.Reflection.MemberInfo", "System.Reflection.TypeInfo", "System.Object",
    };

    /// <summary>ldtoken of a type: refused where the type still holds a generic parameter the context does not fill.</summary>
    public static TypeHandleValue Handle(IlType type) =>
        IsClosed(type) ? new TypeHandleValue(type) : throw new IlRefusal($"reads the type handle of {type.Key}, an unresolved generic parameter");

    private static bool IsClosed(IlType type) => type switch
    {
        IlGenericParameter => false,
        IlNamed named => named.Arguments.All(IsClosed),
        IlArray array => IsClosed(array.Element),
        IlPointer pointer => IsClosed(pointer.Element),
        _ => true,
    };

    public static bool TryCall(IlMachine machine, IlMethod method, object?[] args, out object? result)
    {
        result = null;
        string type = method.DeclaringType.Name;
        switch (type, method.Name)
        {
            case ("System.Type", "GetTypeFromHandle") when args.Length == 1:
                result = Value(args[0]) is TypeHandleValue handle ? new TypeValue(handle.Type)
                    : throw new IlRefusal($"makes a Type of {IlValue.Describe(Value(args[0]))}");
                return true;
            case ("System.Type" or "System.RuntimeType", "op_Equality" or "op_Inequality") when args.Length == 2:
                result = Same(machine, args[0], args[1]) == (method.Name == "op_Equality");
                return true;
            case ("System.RuntimeTypeHandle", "op_Equality" or "op_Inequality") when args.Length == 2
                && Value(args[0]) is TypeHandleValue left && Value(args[1]) is TypeHandleValue right:
                result = left.Type.SameAs(right.Type) == (method.Name == "op_Equality");
                return true;
            case ("System.RuntimeTypeHandle", "Equals") when args.Length == 2 && Value(args[0]) is TypeHandleValue self:
                result = Value(args[1]) is TypeHandleValue other && self.Type.SameAs(other.Type);
                return true;
            case ("System.Object", "GetType") when args.Length == 1:
                object receiver = Value(args[0]) ?? throw IlErrors.NullReference();
                result = new TypeValue(machine.RuntimeType(receiver));
                return true;
        }
        if (method.IsStatic || args.Length == 0 || Value(args[0]) is not TypeValue typeValue || !TypeClasses.Contains(type)) return false;
        result = method.Name switch
        {
            "Equals" when args.Length == 2 => Same(machine, typeValue, args[1]),
            "get_TypeHandle" => new TypeHandleValue(typeValue.Type),
            "get_IsValueType" => typeValue.Type.IsValueType,
            "get_IsInterface" => typeValue.Type is IlNamed { IsInterface: true },
            "get_IsArray" => typeValue.Type is IlArray,
            "get_IsEnum" => typeValue.Type is IlNamed { Kind: IlTypeKind.Enum },
            _ => throw new IlRefusal($"calls {method.DisplayName} on {IlValue.Describe(typeValue)}, which needs the debuggee's Type object"),
        };
        return true;
    }

    /// <summary>The value behind a pointer (an instance method of a struct gets one).</summary>
    private static object? Value(object? value) => value is IlRef reference ? reference.Get() : value;

    /// <summary>Type identity: every type has one runtime Type object, so equal types are the same object.</summary>
    private static bool Same(IlMachine machine, object? a, object? b)
    {
        a = Value(a);
        b = Value(b);
        return (a, b) switch
        {
            (null, null) => true,
            (null, _) or (_, null) => false,
            (TypeValue x, TypeValue y) => x.Type.SameAs(y.Type),
            (DebuggeeObject x, DebuggeeObject y) when IsRuntimeType(machine, x) && IsRuntimeType(machine, y) => x.Address == y.Address,
            (TypeValue x, DebuggeeObject y) when IsRuntimeType(machine, y) => SameAsHeld(machine, x, y),
            (DebuggeeObject x, TypeValue y) when IsRuntimeType(machine, x) => SameAsHeld(machine, y, x),
            _ => throw new IlRefusal($"compares {IlValue.Describe(a)} with {IlValue.Describe(b)} (a Type object the debuggee holds is not matched to a type)"),
        };
    }

    /// <summary>typeof(X) against a RuntimeType the debuggee holds: the same type when its m_handle is X's TypeHandle.</summary>
    private static bool SameAsHeld(IlMachine machine, TypeValue type, DebuggeeObject held)
    {
        IlNamed runtimeType = RuntimeTypeClass(machine.Resolver);
        IlField handle = machine.Resolver.InstanceFields(runtimeType).FirstOrDefault(f => f.Name == "m_handle")
            ?? throw new IlRefusal("cannot find RuntimeType.m_handle");
        long value = IlValue.AsLong(machine.Debuggee.Field(held, handle));
        ulong mine = machine.Debuggee.TypeHandle(type.Type)
            ?? throw new IlRefusal($"compares {IlValue.Describe(type)} with a Type the debuggee holds, and the debuggee has no handle for it");
        return unchecked((ulong)value) == mine;
    }

    private static bool IsRuntimeType(IlMachine machine, DebuggeeObject value) => machine.RuntimeType(value) is IlNamed { Name: "System.RuntimeType" };

    /// <summary>What `typeof(X)` is at run time: a System.RuntimeType (for dispatch and casts).</summary>
    public static IlNamed RuntimeTypeClass(IlResolver resolver) => resolver.CoreLibType("System", "RuntimeType");
}
