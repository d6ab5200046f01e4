using System.Collections.Concurrent;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;

namespace PyInspect.Debugger.Symbols;

/// <summary>
/// What stepping needs to know of a module's methods, read once from its metadata: which
/// are property accessors or operators (step filtering passes over them), which the
/// debugger steps through (DebuggerStepThrough, DebuggerHidden: the compiler marks every
/// async method's kickoff stub so), and which are not user code (DebuggerNonUserCode).
/// An attribute on a type counts for every method of it and of its nested types.
/// </summary>
public sealed class MethodTraits
{
    private static readonly ConcurrentDictionary<string, MethodTraits> Cache = new(StringComparer.Ordinal);
    private readonly HashSet<int> _accessorsAndOperators = [];
    private readonly HashSet<int> _stepThrough = [];
    private readonly HashSet<int> _nonUser = [];
    private readonly HashSet<int> _hidden = [];
    private readonly List<int> _all = [];

    private MethodTraits(string modulePath)
    {
        MetadataReader md = ModuleMetadata.Open(modulePath).Reader;  // the module's one reader, not a second open
        foreach (var typeHandle in md.TypeDefinitions)
        {
            var type = md.GetTypeDefinition(typeHandle);
            string? typeMark = InheritedMark(md, type);
            foreach (var propertyHandle in type.GetProperties())
            {
                var accessors = md.GetPropertyDefinition(propertyHandle).GetAccessors();
                if (!accessors.Getter.IsNil) _accessorsAndOperators.Add(MetadataTokens.GetToken(accessors.Getter));
                if (!accessors.Setter.IsNil) _accessorsAndOperators.Add(MetadataTokens.GetToken(accessors.Setter));
                if (Mark(md, md.GetPropertyDefinition(propertyHandle).GetCustomAttributes()) is "DebuggerHiddenAttribute")
                    foreach (var accessor in (MethodDefinitionHandle[])[accessors.Getter, accessors.Setter])
                        if (!accessor.IsNil) _hidden.Add(MetadataTokens.GetToken(accessor));
            }
            foreach (var methodHandle in type.GetMethods())
            {
                var method = md.GetMethodDefinition(methodHandle);
                int token = MetadataTokens.GetToken(methodHandle);
                _all.Add(token);
                if ((method.Attributes & MethodAttributes.SpecialName) != 0 && md.GetString(method.Name).StartsWith("op_", StringComparison.Ordinal))
                    _accessorsAndOperators.Add(token);
                string? own = Mark(md, method.GetCustomAttributes());
                if (own is "DebuggerHiddenAttribute") _hidden.Add(token);
                string? mark = own ?? typeMark;
                if (mark is "DebuggerStepThroughAttribute" or "DebuggerHiddenAttribute") _stepThrough.Add(token);
                else if (mark is "DebuggerNonUserCodeAttribute") _nonUser.Add(token);
            }
        }
    }

    public static MethodTraits Open(string modulePath) =>
        Cache.GetOrAdd(Path.GetFullPath(modulePath), p => new MethodTraits(p));

    /// <summary>A property getter or setter, or a user-defined operator.</summary>
    public bool IsAccessorOrOperator(int methodToken) => _accessorsAndOperators.Contains(methodToken);

    /// <summary>Methods to step through whatever the just-my-code setting.</summary>
    public IReadOnlyCollection<int> StepThrough => _stepThrough;

    /// <summary>Methods marked as not user code: stepped through only under just-my-code.</summary>
    public IReadOnlyCollection<int> NonUserCode => _nonUser;

    /// <summary>[DebuggerHidden] (on the method or its property): the debugger neither stops
    /// nor sets a breakpoint in it, as the attribute's documentation says.</summary>
    public bool IsHidden(int methodToken) => _hidden.Contains(methodToken);

    /// <summary>Every method the module defines.</summary>
    public IReadOnlyList<int> Methods => _all;

    /// <summary>The debugger attribute on a type or on one it is nested in (nearest wins).</summary>
    private static string? InheritedMark(MetadataReader md, TypeDefinition type)
    {
        for (TypeDefinition current = type; ;)
        {
            if (Mark(md, current.GetCustomAttributes()) is { } mark && mark != "DebuggerHiddenAttribute") return mark;
            TypeDefinitionHandle outer = current.GetDeclaringType();
            if (outer.IsNil) return null;
            current = md.GetTypeDefinition(outer);
        }
    }

    private static string? Mark(MetadataReader md, CustomAttributeHandleCollection attributes)
    {
        foreach (var handle in attributes)
        {
            string? name = AttributeTypeName(md, md.GetCustomAttribute(handle));
            if (name is "DebuggerStepThroughAttribute" or "DebuggerHiddenAttribute" or "DebuggerNonUserCodeAttribute")
                return name;
        }
        return null;
    }

    /// <summary>The attribute's type name when it lives in System.Diagnostics.</summary>
    private static string? AttributeTypeName(MetadataReader md, CustomAttribute attribute)
    {
        EntityHandle typeHandle = attribute.Constructor.Kind switch
        {
            HandleKind.MemberReference => md.GetMemberReference((MemberReferenceHandle)attribute.Constructor).Parent,
            HandleKind.MethodDefinition => md.GetMethodDefinition((MethodDefinitionHandle)attribute.Constructor).GetDeclaringType(),
            _ => default,
        };
        (StringHandle ns, StringHandle name) = typeHandle.Kind switch
        {
            HandleKind.TypeReference => (md.GetTypeReference((TypeReferenceHandle)typeHandle).Namespace, md.GetTypeReference((TypeReferenceHandle)typeHandle).Name),
            HandleKind.TypeDefinition => (md.GetTypeDefinition((TypeDefinitionHandle)typeHandle).Namespace, md.GetTypeDefinition((TypeDefinitionHandle)typeHandle).Name),
            _ => (default, default),
        };
        return !ns.IsNil && md.GetString(ns) == "System.Diagnostics" ? md.GetString(name) : null;
    }
}
