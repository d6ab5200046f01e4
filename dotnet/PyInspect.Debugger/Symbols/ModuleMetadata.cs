using System.Collections.Concurrent;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace PyInspect.Debugger.Symbols;

/// <summary>
/// A module's metadata (names, parameters, fields, properties, base types) read from the
/// file through System.Reflection.Metadata, so frames and values get names without
/// ICorDebug's IMetaDataImport. One reader per module, cached by path for the adapter's
/// lifetime, for every layer (the evaluator's lookups are in ModuleMetadata.Lookup.cs).
/// </summary>
public sealed partial class ModuleMetadata
{
    private static readonly ConcurrentDictionary<string, ModuleMetadata> Cache = new(StringComparer.Ordinal);
    private readonly PEReader _pe;
    private readonly MetadataReader _md;

    private ModuleMetadata(string modulePath)
    {
        _pe = new PEReader(File.OpenRead(modulePath));
        _md = _pe.GetMetadataReader();
        _types = new Lazy<TypeIndex>(IndexTypes);
    }

    /// <summary>The module file's PE reader, shared with its symbols (ModuleSymbols).</summary>
    internal PEReader PE => _pe;

    /// <summary>The module's metadata reader, shared with what stepping reads of it (MethodTraits).</summary>
    internal MetadataReader Reader => _md;

    public static ModuleMetadata Open(string modulePath) =>
        Cache.GetOrAdd(Path.GetFullPath(modulePath), p => new ModuleMetadata(p));

    private static MethodDefinitionHandle MethodHandle(int token) => MetadataTokens.MethodDefinitionHandle(token & 0xFFFFFF);
    private static TypeDefinitionHandle TypeHandle(int token) => MetadataTokens.TypeDefinitionHandle(token & 0xFFFFFF);

    /// <summary>"Namespace.Outer.Inner.Method", generic arity (`1) stripped.</summary>
    public string GetMethodDisplayName(int methodToken)
    {
        var method = _md.GetMethodDefinition(MethodHandle(methodToken));
        string type = StripArity(GetTypeName(MetadataTokens.GetToken(method.GetDeclaringType())));
        return $"{type}.{_md.GetString(method.Name)}";
    }

    private static string StripArity(string name) =>
        string.Join('.', name.Split('.').Select(s => s.IndexOf('`') is var i and >= 0 ? s[..i] : s));

    /// <summary>Parameter names in order (without `this`); "argN" where metadata has no name.</summary>
    public IReadOnlyList<string> GetParameterNames(int methodToken)
    {
        var method = _md.GetMethodDefinition(MethodHandle(methodToken));
        int count = ParameterCount(method);
        var names = new string[count];
        for (int i = 0; i < count; i++)
            names[i] = $"arg{i}";
        foreach (var handle in method.GetParameters())
        {
            var parameter = _md.GetParameter(handle);
            int index = parameter.SequenceNumber - 1;
            if (index >= 0 && index < count && !parameter.Name.IsNil)
                names[index] = _md.GetString(parameter.Name);
        }
        return names;
    }

    private int ParameterCount(MethodDefinition method)
    {
        var blob = _md.GetBlobReader(method.Signature);
        var header = blob.ReadSignatureHeader();
        if (header.IsGeneric)
            blob.ReadCompressedInteger();
        return blob.ReadCompressedInteger();
    }

    public bool IsStatic(int methodToken) =>
        (_md.GetMethodDefinition(MethodHandle(methodToken)).Attributes & MethodAttributes.Static) != 0;

    /// <summary>"Namespace.Outer.Inner", generic names in ECMA form ("List`1").</summary>
    public string GetTypeName(int typeDefToken) => TypeName(TypeHandle(typeDefToken));

    private string TypeName(TypeDefinitionHandle handle)
    {
        var type = _md.GetTypeDefinition(handle);
        string name = _md.GetString(type.Name);
        var declaring = type.GetDeclaringType();
        if (!declaring.IsNil) return $"{TypeName(declaring)}.{name}";
        string ns = _md.GetString(type.Namespace);
        return ns.Length == 0 ? name : $"{ns}.{name}";
    }

    public IReadOnlyList<FieldMeta> GetFields(int typeDefToken)
    {
        var type = _md.GetTypeDefinition(TypeHandle(typeDefToken));
        var fields = new List<FieldMeta>();
        foreach (var handle in type.GetFields())
        {
            var field = _md.GetFieldDefinition(handle);
            string name = _md.GetString(field.Name);
            fields.Add(new FieldMeta(MetadataTokens.GetToken(handle), name, FieldDisplayName(name),
                (field.Attributes & FieldAttributes.Static) != 0, (field.Attributes & FieldAttributes.Literal) != 0));
        }
        return fields;
    }

    /// <summary>"&lt;Name&gt;k__BackingField" is shown as "Name", the property it backs.</summary>
    public static string FieldDisplayName(string name)
    {
        const string suffix = ">k__BackingField";
        return name.StartsWith('<') && name.EndsWith(suffix, StringComparison.Ordinal)
            ? name[1..^suffix.Length]
            : name;
    }

    /// <summary>Base type: a TypeDef token in this module, or a TypeRef's token and full name; null for none.</summary>
    public (int Token, string? ExternalTypeName)? GetBaseType(int typeDefToken)
    {
        var baseType = _md.GetTypeDefinition(TypeHandle(typeDefToken)).BaseType;
        if (baseType.Kind == HandleKind.TypeSpecification)
            baseType = GenericTypeOf((TypeSpecificationHandle)baseType);
        if (baseType.IsNil)
            return null;
        int token = MetadataTokens.GetToken(baseType);
        return baseType.Kind switch
        {
            HandleKind.TypeDefinition => (token, null),
            HandleKind.TypeReference => (token, TypeRefName(_md, (TypeReferenceHandle)baseType)),
            _ => null,
        };
    }

    /// <summary>The open generic type behind a GENERICINST type spec (a generic base class).</summary>
    private EntityHandle GenericTypeOf(TypeSpecificationHandle spec)
    {
        var blob = _md.GetBlobReader(_md.GetTypeSpecification(spec).Signature);
        if (blob.ReadSignatureTypeCode() != SignatureTypeCode.GenericTypeInstance)
            return default;
        blob.ReadSignatureTypeCode(); // class or valuetype
        return blob.ReadTypeHandle();
    }

    /// <summary>The full name of a referenced type, nested types as Outer.Inner.</summary>
    internal static string TypeRefName(MetadataReader md, TypeReferenceHandle handle)
    {
        var reference = md.GetTypeReference(handle);
        string name = md.GetString(reference.Name);
        if (reference.ResolutionScope.Kind == HandleKind.TypeReference)
            return $"{TypeRefName(md, (TypeReferenceHandle)reference.ResolutionScope)}.{name}";
        string ns = md.GetString(reference.Namespace);
        return ns.Length == 0 ? name : $"{ns}.{name}";
    }

    public PropertyMeta[] GetProperties(int typeDefToken)
    {
        var type = _md.GetTypeDefinition(TypeHandle(typeDefToken));
        var properties = new List<PropertyMeta>();
        foreach (var handle in type.GetProperties())
        {
            var property = _md.GetPropertyDefinition(handle);
            var getter = property.GetAccessors().Getter;
            bool isStatic = !getter.IsNil && (_md.GetMethodDefinition(getter).Attributes & MethodAttributes.Static) != 0;
            properties.Add(new PropertyMeta(_md.GetString(property.Name),
                getter.IsNil ? 0 : MetadataTokens.GetToken(getter), isStatic));
        }
        return properties.ToArray();
    }

    /// <summary>Methods named `methodName` on the type (ECMA name, "." or "+" for nesting, arity optional).</summary>
    public IReadOnlyList<int> FindMethods(string typeFullName, string methodName)
    {
        string wanted = typeFullName.Replace('+', '.');
        var tokens = new List<int>();
        foreach (var typeHandle in _md.TypeDefinitions)
        {
            string name = GetTypeName(MetadataTokens.GetToken(typeHandle));
            if (name != wanted && StripArity(name) != wanted)
                continue;
            foreach (var methodHandle in _md.GetTypeDefinition(typeHandle).GetMethods())
                if (_md.StringComparer.Equals(_md.GetMethodDefinition(methodHandle).Name, methodName))
                    tokens.Add(MetadataTokens.GetToken(methodHandle));
        }
        return tokens;
    }

    /// <summary>An enum type's named constants with their values, in metadata order.</summary>
    public IReadOnlyList<(string Name, long Value)> GetEnumMembers(int typeDefToken)
    {
        var type = _md.GetTypeDefinition(TypeHandle(typeDefToken));
        var members = new List<(string, long)>();
        foreach (var handle in type.GetFields())
        {
            var field = _md.GetFieldDefinition(handle);
            if ((field.Attributes & FieldAttributes.Literal) == 0) continue;
            var constant = _md.GetConstant(field.GetDefaultValue());
            var blob = _md.GetBlobReader(constant.Value);
            long value = constant.TypeCode switch
            {
                ConstantTypeCode.SByte => blob.ReadSByte(), ConstantTypeCode.Byte => blob.ReadByte(),
                ConstantTypeCode.Int16 => blob.ReadInt16(), ConstantTypeCode.UInt16 => blob.ReadUInt16(),
                ConstantTypeCode.Int32 => blob.ReadInt32(), ConstantTypeCode.UInt32 => blob.ReadUInt32(),
                ConstantTypeCode.Int64 => blob.ReadInt64(), ConstantTypeCode.UInt64 => (long)blob.ReadUInt64(),
                _ => 0,
            };
            members.Add((_md.GetString(field.Name), value));
        }
        return members;
    }

    /// <summary>The entry point's MethodDef token (Main), or 0 for a library.</summary>
    public int GetEntryPointToken()
    {
        int token = _pe.PEHeaders.CorHeader?.EntryPointTokenOrRelativeVirtualAddress ?? 0;
        return (token >> 24) == 0x06 ? token : 0;
    }
}
