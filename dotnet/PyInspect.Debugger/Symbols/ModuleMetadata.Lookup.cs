// The lookups the evaluator makes in a module's metadata: types by full name, fields with
// their constant values, properties with their getters, methods with their parameter types.
// The same reader and cache as the names frames and values use (ModuleMetadata.cs).
using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace PyInspect.Debugger.Symbols;

public sealed record EvalField(int Token, string Name, bool IsStatic, bool IsLiteral, object? Constant);

public sealed record EvalProperty(string Name, int GetterToken, bool IsStatic, int IndexCount);

public sealed record EvalMethod(int Token, string Name, bool IsStatic, int GenericArity,
    IReadOnlyList<string> ParameterTypes, string ReturnType, bool IsExtension);

public sealed partial class ModuleMetadata
{
    private readonly Lazy<TypeIndex> _types;

    /// <summary>Types by C# full name, and the namespaces they sit in: built on the first lookup.</summary>
    private sealed class TypeIndex
    {
        public readonly Dictionary<string, int> ByName = new(StringComparer.Ordinal);
        public readonly HashSet<string> Namespaces = new(StringComparer.Ordinal);
    }

    private TypeIndex IndexTypes()
    {
        var index = new TypeIndex();
        var generic = new List<(string Name, int Token)>();
        foreach (var handle in _md.TypeDefinitions)
        {
            int token = MetadataTokens.GetToken(handle);
            string name = TypeName(handle);
            index.ByName.TryAdd(name, token);
            if (name.Contains('`')) generic.Add((name, token));
            string ns = _md.GetString(_md.GetTypeDefinition(handle).Namespace);
            for (int dot = ns.Length; dot > 0; dot = ns.LastIndexOf('.', dot - 1))
                if (!index.Namespaces.Add(ns[..dot])) break;
        }
        // Generic types also answer to their name without arity ("List"), after every exact
        // name is in: "Task" must stay System.Threading.Tasks.Task, not Task`1.
        foreach (var (name, token) in generic) index.ByName.TryAdd(StripArity(name), token);
        return index;
    }

    /// <summary>The module's metadata, or null when the file cannot be read as a module.</summary>
    public static ModuleMetadata? TryOpen(string path)
    {
        if (path.Length == 0) return null;
        try { return Open(path); }
        catch (Exception e) when (e is IOException or BadImageFormatException or UnauthorizedAccessException or InvalidOperationException)
        {
            return null;
        }
    }

    /// <summary>A TypeDef token by C# full name ("Ns.Outer.Inner", arity optional), or null.</summary>
    public int? FindType(string fullName) => _types.Value.ByName.TryGetValue(fullName, out int token) ? token : null;

    public bool HasNamespace(string name) => _types.Value.Namespaces.Contains(name);

    /// <summary>The type a nested type is declared in; null for a top-level type.</summary>
    public int? DeclaringTypeOf(int typeDefToken)
    {
        var declaring = _md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(typeDefToken & 0xFFFFFF)).GetDeclaringType();
        return declaring.IsNil ? null : MetadataTokens.GetToken(declaring);
    }

    public string GetNamespace(int typeDefToken)
    {
        var type = _md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(typeDefToken & 0xFFFFFF));
        while (!type.GetDeclaringType().IsNil) type = _md.GetTypeDefinition(type.GetDeclaringType());
        return _md.GetString(type.Namespace);
    }

    public int DeclaringTypeOfMethod(int methodToken) =>
        MetadataTokens.GetToken(_md.GetMethodDefinition(MetadataTokens.MethodDefinitionHandle(methodToken & 0xFFFFFF)).GetDeclaringType());

    /// <summary>Names of the interfaces a type implements directly (generic ones by ECMA name, "IList`1").</summary>
    public IEnumerable<string> Interfaces(int typeDefToken)
    {
        var type = _md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(typeDefToken & 0xFFFFFF));
        foreach (var handle in type.GetInterfaceImplementations())
        {
            EntityHandle iface = _md.GetInterfaceImplementation(handle).Interface;
            if (iface.Kind == HandleKind.TypeSpecification)
            {
                var blob = _md.GetBlobReader(_md.GetTypeSpecification((TypeSpecificationHandle)iface).Signature);
                if (blob.ReadSignatureTypeCode() != SignatureTypeCode.GenericTypeInstance) continue;
                blob.ReadSignatureTypeCode();
                iface = blob.ReadTypeHandle();
            }
            if (iface.Kind == HandleKind.TypeDefinition) yield return TypeName((TypeDefinitionHandle)iface);
            else if (iface.Kind == HandleKind.TypeReference) yield return RefName((TypeReferenceHandle)iface);
        }
    }

    private readonly ConcurrentDictionary<int, EvalField[]> _fields = new();
    private readonly ConcurrentDictionary<int, EvalProperty[]> _properties = new();

    /// <summary>A type's fields (cached: member lookups run once per element in LINQ).</summary>
    public IReadOnlyList<EvalField> Fields(int typeDefToken) => _fields.GetOrAdd(typeDefToken, t => [.. ReadFields(t)]);

    public IReadOnlyList<EvalProperty> Properties(int typeDefToken) => _properties.GetOrAdd(typeDefToken, t => [.. ReadProperties(t)]);

    private IEnumerable<EvalField> ReadFields(int typeDefToken)
    {
        var type = _md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(typeDefToken & 0xFFFFFF));
        foreach (var handle in type.GetFields())
        {
            var field = _md.GetFieldDefinition(handle);
            bool literal = (field.Attributes & FieldAttributes.Literal) != 0;
            yield return new EvalField(MetadataTokens.GetToken(handle), _md.GetString(field.Name),
                (field.Attributes & FieldAttributes.Static) != 0, literal,
                literal ? ReadConstant(field.GetDefaultValue()) : null);
        }
    }

    private object? ReadConstant(ConstantHandle handle)
    {
        if (handle.IsNil) return null;
        var constant = _md.GetConstant(handle);
        var blob = _md.GetBlobReader(constant.Value);
        return constant.TypeCode switch
        {
            ConstantTypeCode.Boolean => blob.ReadBoolean(), ConstantTypeCode.Char => blob.ReadChar(),
            ConstantTypeCode.SByte => blob.ReadSByte(), ConstantTypeCode.Byte => blob.ReadByte(),
            ConstantTypeCode.Int16 => blob.ReadInt16(), ConstantTypeCode.UInt16 => blob.ReadUInt16(),
            ConstantTypeCode.Int32 => blob.ReadInt32(), ConstantTypeCode.UInt32 => blob.ReadUInt32(),
            ConstantTypeCode.Int64 => blob.ReadInt64(), ConstantTypeCode.UInt64 => blob.ReadUInt64(),
            ConstantTypeCode.Single => blob.ReadSingle(), ConstantTypeCode.Double => blob.ReadDouble(),
            ConstantTypeCode.String => blob.ReadUTF16(blob.Length),
            _ => null,
        };
    }

    private IEnumerable<EvalProperty> ReadProperties(int typeDefToken)
    {
        var type = _md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(typeDefToken & 0xFFFFFF));
        foreach (var handle in type.GetProperties())
        {
            var property = _md.GetPropertyDefinition(handle);
            var getter = property.GetAccessors().Getter;
            if (getter.IsNil) continue;
            var method = _md.GetMethodDefinition(getter);
            int parameters = method.GetParameters().Count(p => _md.GetParameter(p).SequenceNumber > 0);
            yield return new EvalProperty(_md.GetString(property.Name), MetadataTokens.GetToken(getter),
                (method.Attributes & MethodAttributes.Static) != 0, parameters);
        }
    }

    public IEnumerable<EvalMethod> Methods(int typeDefToken, string name)
    {
        var type = _md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(typeDefToken & 0xFFFFFF));
        foreach (var handle in type.GetMethods())
        {
            var method = _md.GetMethodDefinition(handle);
            if (!_md.StringComparer.Equals(method.Name, name)) continue;
            MethodSignature<string> signature;
            try { signature = method.DecodeSignature(new SignatureNames(_md, this), null); }
            catch (BadImageFormatException) { continue; }
            bool extension = method.GetCustomAttributes().Any(a => AttributeName(a) == "System.Runtime.CompilerServices.ExtensionAttribute");
            yield return new EvalMethod(MetadataTokens.GetToken(handle), name,
                (method.Attributes & MethodAttributes.Static) != 0, signature.GenericParameterCount,
                signature.ParameterTypes, signature.ReturnType, extension);
        }
    }

    /// <summary>Every method named `name` in the module, with its declaring type's C# full
    /// name (nesting by ".", generic arity stripped): what a function breakpoint is matched against.</summary>
    public IEnumerable<(string TypeName, EvalMethod Method)> MethodsNamed(string name)
    {
        foreach (var typeHandle in _md.TypeDefinitions)
        {
            int typeToken = MetadataTokens.GetToken(typeHandle);
            foreach (var method in Methods(typeToken, name))
                yield return (StripArity(TypeName(typeHandle)), method);
        }
    }

    public MethodAttributes MethodAttributesOf(int methodToken) =>
        _md.GetMethodDefinition(MetadataTokens.MethodDefinitionHandle(methodToken & 0xFFFFFF)).Attributes;

    /// <summary>Static extension methods named `name` in this module, with their declaring types.</summary>
    public IEnumerable<(int TypeToken, EvalMethod Method)> ExtensionMethods(string name)
    {
        foreach (var typeHandle in _md.TypeDefinitions)
        {
            int typeToken = MetadataTokens.GetToken(typeHandle);
            foreach (var method in Methods(typeToken, name))
                if (method.IsStatic && method.IsExtension) yield return (typeToken, method);
        }
    }

    /// <summary>The MoveNext holding an async or iterator method's body, found through the
    /// [AsyncStateMachine(typeof(...))] the compiler puts on it; null for other methods.</summary>
    public int? StateMachineMoveNext(int kickoffToken)
    {
        var method = _md.GetMethodDefinition(MetadataTokens.MethodDefinitionHandle(kickoffToken & 0xFFFFFF));
        foreach (var handle in method.GetCustomAttributes())
        {
            if (AttributeName(handle) is not ("System.Runtime.CompilerServices.AsyncStateMachineAttribute"
                or "System.Runtime.CompilerServices.IteratorStateMachineAttribute"
                or "System.Runtime.CompilerServices.AsyncIteratorStateMachineAttribute")) continue;
            var blob = _md.GetBlobReader(_md.GetCustomAttribute(handle).Value);
            if (blob.ReadUInt16() != 1 || blob.ReadSerializedString() is not { } typeName) continue;
            string nested = typeName[(typeName.LastIndexOf('+') + 1)..];
            foreach (var typeHandle in _md.GetTypeDefinition(method.GetDeclaringType()).GetNestedTypes())
            {
                var type = _md.GetTypeDefinition(typeHandle);
                if (!_md.StringComparer.Equals(type.Name, nested)) continue;
                foreach (var moveNext in type.GetMethods())
                    if (_md.StringComparer.Equals(_md.GetMethodDefinition(moveNext).Name, "MoveNext")) return MetadataTokens.GetToken(moveNext);
            }
        }
        return null;
    }

    private string AttributeName(CustomAttributeHandle handle)
    {
        var ctor = _md.GetCustomAttribute(handle).Constructor;
        if (ctor.Kind != HandleKind.MemberReference) return "";
        var parent = _md.GetMemberReference((MemberReferenceHandle)ctor).Parent;
        return parent.Kind == HandleKind.TypeReference ? RefName((TypeReferenceHandle)parent) : "";
    }

    internal string RefName(TypeReferenceHandle handle) => TypeRefName(_md, handle);

    internal string DefName(TypeDefinitionHandle handle) => TypeName(handle);

    /// <summary>Signature types as metadata names: "System.Int32", "!0", "!!0", "System.Func`2&lt;!!0,System.Boolean&gt;".</summary>
    private sealed class SignatureNames(MetadataReader md, ModuleMetadata owner) : ISignatureTypeProvider<string, object?>
    {
        public string GetPrimitiveType(PrimitiveTypeCode typeCode) => "System." + typeCode switch
        {
            PrimitiveTypeCode.IntPtr => "IntPtr", PrimitiveTypeCode.UIntPtr => "UIntPtr",
            PrimitiveTypeCode.TypedReference => "TypedReference", _ => typeCode.ToString(),
        };
        public string GetTypeFromDefinition(MetadataReader reader, TypeDefinitionHandle handle, byte rawTypeKind) => owner.DefName(handle);
        public string GetTypeFromReference(MetadataReader reader, TypeReferenceHandle handle, byte rawTypeKind) => owner.RefName(handle);
        public string GetSZArrayType(string elementType) => elementType + "[]";
        public string GetArrayType(string elementType, ArrayShape shape) => elementType + "[" + new string(',', shape.Rank - 1) + "]";
        public string GetByReferenceType(string elementType) => elementType + "&";
        public string GetPointerType(string elementType) => elementType + "*";
        public string GetGenericInstantiation(string genericType, ImmutableArray<string> typeArguments) =>
            $"{genericType}<{string.Join(",", typeArguments)}>";
        public string GetGenericTypeParameter(object? context, int index) => "!" + index;
        public string GetGenericMethodParameter(object? context, int index) => "!!" + index;
        public string GetFunctionPointerType(MethodSignature<string> signature) => "fnptr";
        public string GetModifiedType(string modifier, string unmodifiedType, bool isRequired) => unmodifiedType;
        public string GetPinnedType(string elementType) => elementType;
        public string GetTypeFromSpecification(MetadataReader reader, object? context, TypeSpecificationHandle handle, byte rawTypeKind) =>
            md.GetTypeSpecification(handle).DecodeSignature(this, context);
    }
}
