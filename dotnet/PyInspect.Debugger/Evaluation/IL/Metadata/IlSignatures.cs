// Signature blobs decoded into IlTypes: type references followed to the module that defines
// them (through type forwarders), generic parameters substituted from a context or kept.
using System.Collections.Immutable;
using System.Reflection.Metadata;
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Evaluation.IL.Metadata;

internal sealed class IlSignatures(IlResolver resolver, string modulePath) : ISignatureTypeProvider<IlType, IlGenericContext>
{
    public IlType GetPrimitiveType(PrimitiveTypeCode typeCode) => new IlPrimitive(typeCode switch
    {
        PrimitiveTypeCode.Boolean => CorElementType.Boolean, PrimitiveTypeCode.Char => CorElementType.Char,
        PrimitiveTypeCode.SByte => CorElementType.I1, PrimitiveTypeCode.Byte => CorElementType.U1,
        PrimitiveTypeCode.Int16 => CorElementType.I2, PrimitiveTypeCode.UInt16 => CorElementType.U2,
        PrimitiveTypeCode.Int32 => CorElementType.I4, PrimitiveTypeCode.UInt32 => CorElementType.U4,
        PrimitiveTypeCode.Int64 => CorElementType.I8, PrimitiveTypeCode.UInt64 => CorElementType.U8,
        PrimitiveTypeCode.Single => CorElementType.R4, PrimitiveTypeCode.Double => CorElementType.R8,
        PrimitiveTypeCode.IntPtr => CorElementType.I, PrimitiveTypeCode.UIntPtr => CorElementType.U,
        PrimitiveTypeCode.String => CorElementType.String, PrimitiveTypeCode.Object => CorElementType.Object,
        PrimitiveTypeCode.TypedReference => throw new IlRefusal("uses a TypedReference"),
        _ => CorElementType.Void,
    });

    public IlType GetTypeFromDefinition(MetadataReader reader, TypeDefinitionHandle handle, byte rawTypeKind) =>
        resolver.Named(modulePath, System.Reflection.Metadata.Ecma335.MetadataTokens.GetToken(handle), []);

    public IlType GetTypeFromReference(MetadataReader reader, TypeReferenceHandle handle, byte rawTypeKind)
    {
        var (path, token) = resolver.ResolveTypeReference(modulePath, handle);
        return resolver.Named(path, token, []);
    }

    public IlType GetTypeFromSpecification(MetadataReader reader, IlGenericContext context, TypeSpecificationHandle handle, byte rawTypeKind) =>
        reader.GetTypeSpecification(handle).DecodeSignature(this, context);

    public IlType GetSZArrayType(IlType elementType) => new IlArray(elementType, 1);
    public IlType GetArrayType(IlType elementType, ArrayShape shape) => new IlArray(elementType, Math.Max(shape.Rank, 2));
    public IlType GetByReferenceType(IlType elementType) => new IlPointer(elementType, true);
    public IlType GetPointerType(IlType elementType) => new IlPointer(elementType, false);
    public IlType GetPinnedType(IlType elementType) => elementType;
    public IlType GetModifiedType(IlType modifier, IlType unmodifiedType, bool isRequired) => unmodifiedType;
    public IlType GetFunctionPointerType(MethodSignature<IlType> signature) => new IlPrimitive(CorElementType.I);

    public IlType GetGenericInstantiation(IlType genericType, ImmutableArray<IlType> typeArguments) =>
        genericType is IlNamed named ? named with { Arguments = typeArguments } : genericType;

    public IlType GetGenericTypeParameter(IlGenericContext context, int index) =>
        context.TypeArguments is { } arguments && index < arguments.Count ? arguments[index] : new IlGenericParameter(false, index);

    public IlType GetGenericMethodParameter(IlGenericContext context, int index) =>
        context.MethodArguments is { } arguments && index < arguments.Count ? arguments[index] : new IlGenericParameter(true, index);
}
