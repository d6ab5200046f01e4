// Type names in expressions: resolving them against the loaded modules (as C# would from
// the stopped method's namespace, with `using System` and friends), and checking a value's
// runtime type against one (is, as, casts).
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;

namespace PyInspect.Debugger.Evaluation.Expressions;

public static class Types
{
    /// <summary>The SDK's implicit usings, plus namespaces a debugging session reaches for.</summary>
    private static readonly string[] ImplicitNamespaces =
    [
        "System", "System.Collections.Generic", "System.Linq", "System.Text", "System.IO", "System.Threading",
        "System.Threading.Tasks", "System.Net.Http", "System.Diagnostics", "System.Collections.Concurrent", "System.Collections",
    ];

    /// <summary>A type by the name the expression uses, or null.</summary>
    public static TypeRef? Resolve(string name, EvalContext context)
    {
        name = EvalValues.KeywordType(name) ?? name;
        int angle = name.IndexOf('<');
        if (angle >= 0) name = name[..angle];
        var candidates = new List<string> { name };
        if (EnclosingType(context) is { } enclosing)
        {
            candidates.Add($"{enclosing.FullName}.{name}");
            var md = ModuleMetadata.TryOpen(enclosing.Module.Path);
            string ns = md?.GetNamespace(enclosing.Token) ?? "";
            for (string prefix = ns; prefix.Length > 0; prefix = prefix.Contains('.') ? prefix[..prefix.LastIndexOf('.')] : "")
                candidates.Add($"{prefix}.{name}");
        }
        candidates.AddRange(ImplicitNamespaces.Select(ns => $"{ns}.{name}"));
        var modules = context.Modules.All();
        foreach (string candidate in candidates)
            foreach (var module in modules)
                if (ModuleMetadata.TryOpen(module.Path) is { } md && md.FindType(candidate) is { } token)
                    return new TypeRef(module, token, md.GetTypeName(token));
        return null;
    }

    /// <summary>A type spelled in the expression as a debuggee type (`Order`, `List&lt;int&gt;`,
    /// `Dictionary&lt;string, Order&gt;`), with its type arguments.</summary>
    public static unsafe (TypeRef Type, ICorDebugType Instance, IReadOnlyList<ICorDebugType> Arguments) Instantiate(
        Microsoft.CodeAnalysis.CSharp.Syntax.TypeSyntax syntax, EvalContext context)
    {
        var generic = syntax switch
        {
            Microsoft.CodeAnalysis.CSharp.Syntax.GenericNameSyntax g => g,
            Microsoft.CodeAnalysis.CSharp.Syntax.QualifiedNameSyntax { Right: Microsoft.CodeAnalysis.CSharp.Syntax.GenericNameSyntax g } => g,
            _ => null,
        };
        string name = Interpreter.TypeNameOf(syntax);
        if (generic is not null) name = $"{name[..name.IndexOf('<')]}`{generic.TypeArgumentList.Arguments.Count}";
        TypeRef type = Resolve(name, context) ?? (generic is null ? null : Resolve(name[..name.IndexOf('`')], context))
            ?? throw new EvalException($"'{syntax}' is not a type of the loaded modules");
        var arguments = generic?.TypeArgumentList.Arguments.Select(a => Instantiate(a, context).Instance).ToList() ?? [];
        if (type.Module.Module.GetClassFromToken(type.Token, out var cls) < 0 || cls is not ICorDebugClass2 parameterized)
            throw new EvalException($"cannot find the class of '{syntax}' in the debuggee");
        var pointers = arguments.Select(a => (nint)System.Runtime.InteropServices.Marshalling.ComInterfaceMarshaller<ICorDebugType>.ConvertToUnmanaged(a)).ToArray();
        try
        {
            int kind = IsValueType(type) ? CorElementType.ValueType : CorElementType.Class;
            fixed (nint* p = pointers)
                if (parameterized.GetParameterizedType(kind, (uint)pointers.Length, p, out var instance) >= 0)
                    return (type, instance, arguments);
        }
        finally
        {
            foreach (nint pointer in pointers) System.Runtime.InteropServices.Marshal.Release(pointer);
        }
        throw new EvalException($"cannot instantiate '{syntax}' in the debuggee");
    }

    /// <summary>Structs and enums (their base is System.ValueType or System.Enum).</summary>
    public static bool IsValueType(TypeRef type)
    {
        var md = ModuleMetadata.Open(type.Module.Path);
        if (md.GetBaseType(type.Token) is not { } baseType) return false;
        string name = baseType.ExternalTypeName ?? md.GetTypeName(baseType.Token);
        return name is "System.ValueType" or "System.Enum";
    }

    /// <summary>System.Object as a debuggee type, to instantiate generic methods with.</summary>
    public static unsafe ICorDebugType? ObjectType(EvalContext context)
    {
        if (Resolve("System.Object", context) is not { } type || type.Module.Module.GetClassFromToken(type.Token, out var cls) < 0
            || cls is not ICorDebugClass2 generic)
            return null;
        return generic.GetParameterizedType(CorElementType.Class, 0, null, out var made) >= 0 ? made : null;
    }

    public static bool IsNamespace(string name, EvalContext context) =>
        context.Modules.All().Any(m => ModuleMetadata.TryOpen(m.Path)?.HasNamespace(name) == true);

    /// <summary>The type declaring the stopped method.</summary>
    public static TypeRef? EnclosingType(EvalContext context)
    {
        if (context.Frame is not { Module: { } module } frame || ModuleMetadata.TryOpen(module.Path) is not { } md) return null;
        int token = md.DeclaringTypeOfMethod(frame.MethodToken);
        // State machines and closures are nested types named <...>: the code in them belongs to the type around them.
        while (md.GetTypeName(token).Split('.')[^1].StartsWith('<') && md.DeclaringTypeOf(token) is int outer) token = outer;
        return new TypeRef(module, token, md.GetTypeName(token));
    }

    /// <summary>Where C# finds an unqualified static member: the enclosing type and its bases,
    /// then each type it is nested in and their bases (a base in another module by its name).</summary>
    public static IEnumerable<TypeRef> StaticScopes(EvalContext context)
    {
        for (TypeRef? scope = EnclosingType(context); scope is not null; scope = Outer(scope))
            for (TypeRef? level = scope; level is not null; level = BaseOf(level, context))
                yield return level;
    }

    private static TypeRef? Outer(TypeRef type) =>
        ModuleMetadata.TryOpen(type.Module.Path) is { } md && md.DeclaringTypeOf(type.Token) is int outer
            ? new TypeRef(type.Module, outer, md.GetTypeName(outer)) : null;

    private static TypeRef? BaseOf(TypeRef type, EvalContext context)
    {
        if (ModuleMetadata.TryOpen(type.Module.Path) is not { } md || md.GetBaseType(type.Token) is not var (token, external)) return null;
        if (external is null) return new TypeRef(type.Module, token, md.GetTypeName(token));
        if (external is "System.Object" or "System.ValueType" or "System.Enum") return null;
        foreach (var module in context.Modules.All())
            if (ModuleMetadata.TryOpen(module.Path) is { } other && other.FindType(external) is { } found)
                return new TypeRef(module, found, other.GetTypeName(found));
        return null;
    }

    /// <summary>`value is T`: local values by their .NET type, debuggee objects by runtime type, bases and interfaces.</summary>
    public static bool IsInstance(object? value, string typeName, EvalContext context)
    {
        if (EvalValues.IsNull(value)) return false;
        typeName = EvalValues.KeywordType(typeName) ?? typeName;
        if (typeName is "System.Object" or "object") return true;
        object? local = EvalValues.Local(value);
        if (local is not RemoteValue) return IsLocalType(local, typeName) || (local is EnumValue e && SameName(e.TypeName, typeName));
        var remote = (RemoteValue)local;
        string? wanted = Resolve(typeName, context)?.FullName ?? typeName;
        foreach (string name in TypeChain(remote.Value))
            if (SameName(name, wanted) || SameName(name, typeName)) return true;
        return false;
    }

    private static bool SameName(string metadataName, string wanted)
    {
        string plain = StripArity(metadataName);
        wanted = StripArity(wanted.Contains('<') ? wanted[..wanted.IndexOf('<')] : wanted);
        return plain == wanted || plain.EndsWith("." + wanted, StringComparison.Ordinal);
    }

    private static string StripArity(string name) =>
        string.Join('.', name.Split('.').Select(s => s.IndexOf('`') is var i and >= 0 ? s[..i] : s));

    /// <summary>Metadata names of an object's runtime type, its bases and their interfaces.</summary>
    public static IEnumerable<string> TypeChain(ICorDebugValue value)
    {
        ICorDebugValue? target = ValuePath.Dereference(value);
        if (target is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0) yield break;
        if (target is ICorDebugArrayValue) { yield return TypeNames.Format(type); yield return "System.Array"; yield break; }
        ICorDebugType? current = type;
        for (int depth = 0; current is not null && depth < 32; depth++)
        {
            if (current.GetClass(out var cls) < 0) break;
            yield return TypeNames.DeclaredName(cls);
            if (cls.GetModule(out var module) >= 0 && ModuleMetadata.TryOpen(DebuggerEngine.ModuleName(module)) is { } md
                && cls.GetToken(out int token) >= 0)
                foreach (string iface in md.Interfaces(token)) yield return iface;
            if (current.GetBase(out var baseType) < 0) break;
            current = baseType;
        }
    }

    public static bool IsLocalType(object? value, string typeName) => value switch
    {
        string => typeName is "System.String" or "string" or "String",
        _ => value is not null && Operators.PrimitiveType(typeName) == value.GetType(),
    };
}
