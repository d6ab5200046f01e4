// Tokens of a method body resolved to what they name, across the debuggee's loaded modules:
// type references followed to the defining module (through type forwarders), member
// references to the MethodDef/FieldDef they match, generic instantiations substituted.
using System.Collections.Concurrent;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Evaluation.IL.Metadata;

/// <summary>A method as called: where its definition is, its declaring type and method type arguments, its signature.</summary>
public sealed record IlMethod(string ModulePath, int Token, IlNamed DeclaringType, string Name, IReadOnlyList<IlType> MethodArguments,
    MethodAttributes Attributes, MethodImplAttributes ImplAttributes, IReadOnlyList<IlType> Parameters, IlType ReturnType)
{
    public bool IsStatic => (Attributes & MethodAttributes.Static) != 0;
    public bool IsVirtual => (Attributes & MethodAttributes.Virtual) != 0;
    public string DisplayName => $"{IlResolver.DisplayName(DeclaringType.Name)}.{Name}";
    public IlGenericContext Context => new(DeclaringType.Arguments, MethodArguments);
}

/// <summary>A field as accessed: its declaring type (instantiated), FieldDef token in that type's module, and type.</summary>
public sealed record IlField(IlNamed DeclaringType, int Token, string Name, bool IsStatic, bool IsLiteral, IlType FieldType)
{
    public string DisplayName => $"{IlResolver.DisplayName(DeclaringType.Name)}.{Name}";
}

public sealed class IlResolver(ModuleCatalog modules)
{
    private static readonly ConcurrentDictionary<(string Path, int Token), (string Path, int Token)> TypeRefs = new();
    private static readonly ConcurrentDictionary<string, Dictionary<(string Ns, string Name), int>> TopLevelTypes = new();
    private Dictionary<string, string>? _assemblies;

    public static string DisplayName(string metadataName) =>
        string.Join('.', metadataName.Split('.').Select(s => s.IndexOf('`') is var i and >= 0 ? s[..i] : s)).Replace('+', '.');

    public static MetadataReader Reader(string path) => ModuleMetadata.Open(path).Reader;

    public LoadedModule? Loaded(string path) => modules.Find(path);

    /// <summary>A TypeDef as an IlType: CoreLib's primitives as IlPrimitive, others as IlNamed of the kind metadata says.</summary>
    public IlType Named(string path, int token, IReadOnlyList<IlType> arguments)
    {
        var md = ModuleMetadata.Open(path);
        string name = md.GetTypeName(token);
        if (arguments.Count == 0 && IlPrimitive.ElementTypeOf(name) is int elementType && IsCoreLib(path)) return new IlPrimitive(elementType);
        return new IlNamed(path, token, name, arguments, KindOf(path, token));
    }

    private static bool IsCoreLib(string path) => Path.GetFileName(path) == "System.Private.CoreLib.dll";

    private static readonly ConcurrentDictionary<(string, int), IlTypeKind> Kinds = new();

    private static IlTypeKind KindOf(string path, int token) => Kinds.GetOrAdd((path, token), key =>
    {
        var md = Reader(key.Item1);
        var type = md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(key.Item2 & 0xFFFFFF));
        if ((type.Attributes & TypeAttributes.Interface) != 0) return IlTypeKind.Interface;
        string? baseName = ModuleMetadata.Open(key.Item1).GetBaseType(key.Item2) is { } b
            ? b.ExternalTypeName ?? ModuleMetadata.Open(key.Item1).GetTypeName(b.Token) : null;
        string self = ModuleMetadata.Open(key.Item1).GetTypeName(key.Item2);
        return baseName switch
        {
            "System.Enum" => IlTypeKind.Enum,
            "System.ValueType" when self != "System.Enum" => IlTypeKind.Struct,
            _ => IlTypeKind.Class,
        };
    });

    public (string Path, int Token) ResolveTypeReference(string path, TypeReferenceHandle handle) =>
        TypeRefs.GetOrAdd((path, MetadataTokens.GetToken(handle)), key => FindReferenced(key.Path, handle));

    private (string Path, int Token) FindReferenced(string path, TypeReferenceHandle handle)
    {
        var md = Reader(path);
        var reference = md.GetTypeReference(handle);
        string ns = md.GetString(reference.Namespace), name = md.GetString(reference.Name);
        var scope = reference.ResolutionScope;
        switch (scope.Kind)
        {
            case HandleKind.TypeReference:
                var (outerPath, outerToken) = ResolveTypeReference(path, (TypeReferenceHandle)scope);
                return (outerPath, NestedType(outerPath, outerToken, name));
            case HandleKind.AssemblyReference:
                string assembly = md.GetString(md.GetAssemblyReference((AssemblyReferenceHandle)scope).Name);
                return FindInAssembly(assembly, ns, name);
            default:
                return (path, TopLevel(path, ns, name) ?? throw new IlRefusal($"cannot find type {ns}.{name}"));
        }
    }

    private static int NestedType(string path, int outer, string name)
    {
        var md = Reader(path);
        foreach (var nested in md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(outer & 0xFFFFFF)).GetNestedTypes())
            if (md.StringComparer.Equals(md.GetTypeDefinition(nested).Name, name)) return MetadataTokens.GetToken(nested);
        throw new IlRefusal($"cannot find nested type {name}");
    }

    private (string Path, int Token) FindInAssembly(string assembly, string ns, string name)
    {
        string path = AssemblyPath(assembly) ?? throw new IlRefusal($"assembly {assembly} is not loaded in the debuggee");
        if (TopLevel(path, ns, name) is int token) return (path, token);
        var md = Reader(path);
        foreach (var handle in md.ExportedTypes)
        {
            var exported = md.GetExportedType(handle);
            if (!md.StringComparer.Equals(exported.Name, name) || !md.StringComparer.Equals(exported.Namespace, ns)) continue;
            if (exported.Implementation.Kind == HandleKind.AssemblyReference)
                return FindInAssembly(md.GetString(md.GetAssemblyReference((AssemblyReferenceHandle)exported.Implementation).Name), ns, name);
        }
        throw new IlRefusal($"cannot find type {ns}.{name} in {assembly}");
    }

    private string? AssemblyPath(string assembly)
    {
        var known = _assemblies;
        if (known is null || !known.ContainsKey(assembly))
        {
            // Built aside and then published: the resolver is shared by evaluations on different threads.
            known = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
            foreach (var module in modules.All())
            {
                if (ModuleMetadata.TryOpen(module.Path) is not { } md || !md.Reader.IsAssembly) continue;
                known.TryAdd(md.Reader.GetString(md.Reader.GetAssemblyDefinition().Name), module.Path);
            }
            _assemblies = known;
        }
        return known.GetValueOrDefault(assembly);
    }

    private static int? TopLevel(string path, string ns, string name)
    {
        var types = TopLevelTypes.GetOrAdd(path, p =>
        {
            var md = Reader(p);
            var map = new Dictionary<(string, string), int>();
            foreach (var handle in md.TypeDefinitions)
            {
                var type = md.GetTypeDefinition(handle);
                if (type.GetDeclaringType().IsNil) map.TryAdd((md.GetString(type.Namespace), md.GetString(type.Name)), MetadataTokens.GetToken(handle));
            }
            return map;
        });
        return types.TryGetValue((ns, name), out int token) ? token : null;
    }

    /// <summary>A TypeDef, TypeRef or TypeSpec token of a body, in its generic context.</summary>
    public IlType ResolveType(string path, int token, IlGenericContext context)
    {
        var md = Reader(path);
        var signatures = new IlSignatures(this, path);
        EntityHandle handle = MetadataTokens.EntityHandle(token);
        return handle.Kind switch
        {
            HandleKind.TypeDefinition => Named(path, token, []),
            HandleKind.TypeReference => signatures.GetTypeFromReference(md, (TypeReferenceHandle)handle, 0),
            HandleKind.TypeSpecification => md.GetTypeSpecification((TypeSpecificationHandle)handle).DecodeSignature(signatures, context),
            _ => throw new IlRefusal($"unexpected type token 0x{token:X8}"),
        };
    }

    private IlNamed ResolveOwner(string path, EntityHandle parent, IlGenericContext context) =>
        ResolveType(path, MetadataTokens.GetToken(parent), context) switch
        {
            IlNamed named => named,
            IlPrimitive primitive => PrimitiveAsNamed(primitive),
            var other => throw new IlRefusal($"calls a member of {other.Key}"),
        };

    /// <summary>A primitive's CoreLib TypeDef (System.Int32), for calling its methods.</summary>
    public IlNamed PrimitiveAsNamed(IlPrimitive primitive)
    {
        string corelib = AssemblyPath("System.Private.CoreLib") ?? throw new IlRefusal("System.Private.CoreLib is not loaded");
        string[] parts = primitive.Key.Split('.');
        int token = TopLevel(corelib, parts[0], parts[1]) ?? throw new IlRefusal($"cannot find {primitive.Key}");
        return new IlNamed(corelib, token, primitive.Key, [], primitive.ElementType is Engine.CorElementType.String or Engine.CorElementType.Object
            ? IlTypeKind.Class : IlTypeKind.Struct);
    }

    /// <summary>A type as a class or struct with metadata: CoreLib's primitives as their structs (int as System.Int32).</summary>
    public IlNamed AsNamed(IlType type) => type switch
    {
        IlNamed named => named,
        IlPrimitive primitive => PrimitiveAsNamed(primitive),
        _ => throw new IlRefusal($"calls a method on {type.Key}"),
    };

    /// <summary>A non-generic type of System.Private.CoreLib by namespace and name (IEnumerable for enumerating, RuntimeType, an exception class).</summary>
    public IlNamed CoreLibType(string ns, string name)
    {
        string corelib = AssemblyPath("System.Private.CoreLib") ?? throw new IlRefusal("System.Private.CoreLib is not loaded");
        int token = TopLevel(corelib, ns, name) ?? throw new IlRefusal($"cannot find {ns}.{name}");
        return Named(corelib, token, []) as IlNamed ?? throw new IlRefusal($"{ns}.{name} is a primitive");
    }

    /// <summary>Tokens of bodies outside any generic context, resolved once: they mean the same at every call (a
    /// breakpoint condition's getter runs the same few at every hit). Generic contexts resolve each time.</summary>
    private readonly ConcurrentDictionary<(string Path, int Token), IlMethod> _plainMethods = new();
    private readonly ConcurrentDictionary<(string Path, int Token), IlField> _plainFields = new();

    private static bool IsPlain(IlGenericContext context) =>
        context.TypeArguments is null or { Count: 0 } && context.MethodArguments is null or { Count: 0 };

    /// <summary>A method token (MethodDef, MemberRef, MethodSpec) of a body, in its generic context.</summary>
    public IlMethod ResolveMethod(string path, int token, IlGenericContext context) => IsPlain(context)
        ? _plainMethods.GetOrAdd((path, token), key => ResolveMethodIn(key.Path, key.Token, context))
        : ResolveMethodIn(path, token, context);

    private IlMethod ResolveMethodIn(string path, int token, IlGenericContext context)
    {
        var md = Reader(path);
        EntityHandle handle = MetadataTokens.EntityHandle(token);
        switch (handle.Kind)
        {
            case HandleKind.MethodDefinition:
                var definition = md.GetMethodDefinition((MethodDefinitionHandle)handle);
                var declaringHandle = definition.GetDeclaringType();
                bool isGeneric = md.GetTypeDefinition(declaringHandle).GetGenericParameters().Count > 0;
                var ownerType = Named(path, MetadataTokens.GetToken(declaringHandle), isGeneric ? context.TypeArguments ?? [] : []);
                return Method(AsNamed(ownerType), token, []);
            case HandleKind.MethodSpecification:
                var spec = md.GetMethodSpecification((MethodSpecificationHandle)handle);
                var arguments = spec.DecodeSignature(new IlSignatures(this, path), context);
                var generic = ResolveMethod(path, MetadataTokens.GetToken(spec.Method), context);
                return Method(generic.DeclaringType, generic.Token, arguments);
            case HandleKind.MemberReference:
                var reference = md.GetMemberReference((MemberReferenceHandle)handle);
                IlNamed declaring = ResolveOwner(path, reference.Parent, context);
                string name = md.GetString(reference.Name);
                var signature = reference.DecodeMethodSignature(new IlSignatures(this, path), IlGenericContext.Open);
                int found = FindMethod(declaring, name, signature)
                    ?? throw new IlRefusal($"cannot find method {IlResolver.DisplayName(declaring.Name)}.{name}");
                return Method(declaring, found, []);
            default:
                throw new IlRefusal($"unexpected method token 0x{token:X8}");
        }
    }

    /// <summary>The methods a type itself defines under a name, whatever their signatures (IEnumerator.MoveNext, a getter).</summary>
    public IEnumerable<IlMethod> MethodsNamed(IlNamed type, string name)
    {
        var md = Reader(type.ModulePath);
        foreach (var handle in md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(type.Token & 0xFFFFFF)).GetMethods())
            if (md.StringComparer.Equals(md.GetMethodDefinition(handle).Name, name))
                yield return Method(type, MetadataTokens.GetToken(handle), []);
    }

    /// <summary>The method of a type matching a name and an open signature (generic parameters kept), or null.</summary>
    public int? FindMethod(IlNamed type, string name, MethodSignature<IlType> open)
    {
        var md = Reader(type.ModulePath);
        var typeDef = md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(type.Token & 0xFFFFFF));
        string key = SignatureKey(open);
        foreach (var handle in typeDef.GetMethods())
        {
            var method = md.GetMethodDefinition(handle);
            if (!md.StringComparer.Equals(method.Name, name)) continue;
            if (SignatureKey(method.DecodeSignature(new IlSignatures(this, type.ModulePath), IlGenericContext.Open)) == key)
                return MetadataTokens.GetToken(handle);
        }
        return null;
    }

    public static string SignatureKey(MethodSignature<IlType> signature) =>
        $"{signature.Header.IsInstance}|{signature.GenericParameterCount}|{signature.ReturnType.Key}({string.Join(",", signature.ParameterTypes.Select(p => p.Key))})";

    /// <summary>The open signature of a MethodDef (generic parameters kept), for matching overrides.</summary>
    public MethodSignature<IlType> OpenSignature(string path, int token) =>
        Reader(path).GetMethodDefinition(MetadataTokens.MethodDefinitionHandle(token & 0xFFFFFF))
            .DecodeSignature(new IlSignatures(this, path), IlGenericContext.Open);

    /// <summary>A MethodDef of a declaring type, instantiated by the type's and the method's arguments.</summary>
    public IlMethod Method(IlNamed declaring, int token, IReadOnlyList<IlType> methodArguments)
    {
        var md = Reader(declaring.ModulePath);
        var definition = md.GetMethodDefinition(MetadataTokens.MethodDefinitionHandle(token & 0xFFFFFF));
        var context = new IlGenericContext(declaring.Arguments, methodArguments);
        var signature = definition.DecodeSignature(new IlSignatures(this, declaring.ModulePath), context);
        return new IlMethod(declaring.ModulePath, token, declaring, md.GetString(definition.Name), methodArguments,
            definition.Attributes, definition.ImplAttributes, signature.ParameterTypes, signature.ReturnType);
    }

    /// <summary>A field token (FieldDef or MemberRef) of a body, in its generic context.</summary>
    public IlField ResolveField(string path, int token, IlGenericContext context) => IsPlain(context)
        ? _plainFields.GetOrAdd((path, token), key => ResolveFieldIn(key.Path, key.Token, context))
        : ResolveFieldIn(path, token, context);

    private IlField ResolveFieldIn(string path, int token, IlGenericContext context)
    {
        var md = Reader(path);
        EntityHandle handle = MetadataTokens.EntityHandle(token);
        if (handle.Kind == HandleKind.FieldDefinition)
        {
            var definition = md.GetFieldDefinition((FieldDefinitionHandle)handle);
            var declaringHandle = definition.GetDeclaringType();
            bool generic = md.GetTypeDefinition(declaringHandle).GetGenericParameters().Count > 0;
            var owner = Named(path, MetadataTokens.GetToken(declaringHandle), generic ? context.TypeArguments ?? [] : []);
            return Field(AsNamed(owner), token);
        }
        if (handle.Kind != HandleKind.MemberReference) throw new IlRefusal($"unexpected field token 0x{token:X8}");
        var reference = md.GetMemberReference((MemberReferenceHandle)handle);
        IlNamed declaring = ResolveOwner(path, reference.Parent, context);
        string name = md.GetString(reference.Name);
        var owned = Reader(declaring.ModulePath);
        foreach (var fieldHandle in owned.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(declaring.Token & 0xFFFFFF)).GetFields())
            if (owned.StringComparer.Equals(owned.GetFieldDefinition(fieldHandle).Name, name))
                return Field(declaring, MetadataTokens.GetToken(fieldHandle));
        throw new IlRefusal($"cannot find field {DisplayName(declaring.Name)}.{name}");
    }

    public IlField Field(IlNamed declaring, int token)
    {
        var md = Reader(declaring.ModulePath);
        var definition = md.GetFieldDefinition(MetadataTokens.FieldDefinitionHandle(token & 0xFFFFFF));
        var type = definition.DecodeSignature(new IlSignatures(this, declaring.ModulePath), new IlGenericContext(declaring.Arguments, null));
        return new IlField(declaring, token, md.GetString(definition.Name), (definition.Attributes & FieldAttributes.Static) != 0,
            (definition.Attributes & FieldAttributes.Literal) != 0, type);
    }

    /// <summary>The instance fields of a type (its own, not its bases'), instantiated.</summary>
    public IEnumerable<IlField> InstanceFields(IlNamed type)
    {
        var md = Reader(type.ModulePath);
        foreach (var handle in md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(type.Token & 0xFFFFFF)).GetFields())
            if ((md.GetFieldDefinition(handle).Attributes & FieldAttributes.Static) == 0) yield return Field(type, MetadataTokens.GetToken(handle));
    }

    /// <summary>A type's base type, instantiated in the type's own arguments; null for System.Object and interfaces.</summary>
    public IlType? BaseOf(IlNamed type)
    {
        var md = Reader(type.ModulePath);
        var baseHandle = md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(type.Token & 0xFFFFFF)).BaseType;
        return baseHandle.IsNil ? null : ResolveType(type.ModulePath, MetadataTokens.GetToken(baseHandle), new IlGenericContext(type.Arguments, null));
    }

    /// <summary>The interfaces a type declares it implements, instantiated.</summary>
    public IEnumerable<IlType> InterfacesOf(IlNamed type)
    {
        var md = Reader(type.ModulePath);
        foreach (var handle in md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(type.Token & 0xFFFFFF)).GetInterfaceImplementations())
            yield return ResolveType(type.ModulePath, MetadataTokens.GetToken(md.GetInterfaceImplementation(handle).Interface),
                new IlGenericContext(type.Arguments, null));
    }

    /// <summary>Whether a type has a static constructor (its statics are not ready until it ran).</summary>
    public static bool HasStaticConstructor(IlNamed type)
    {
        var md = Reader(type.ModulePath);
        return md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(type.Token & 0xFFFFFF)).GetMethods()
            .Any(m => md.StringComparer.Equals(md.GetMethodDefinition(m).Name, ".cctor"));
    }
}
