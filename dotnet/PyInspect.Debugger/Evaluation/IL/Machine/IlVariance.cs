// Casts to generic interfaces by the runtime's rules (ECMA-335 II.9.5, I.8.7): an object is an
// IEnumerable<object> when its type (or a base) lists IEnumerable<T> with T a reference type
// assignable to object, because IEnumerable's T is `out`. Variance applies to reference type
// arguments only (IEnumerable<int> is no IEnumerable<object>); `in` parameters reverse the
// direction; invariant ones must be the same type. The interfaces come from the type's
// metadata instantiated by its runtime type arguments (ICorDebugType for debuggee objects).
using System.Reflection;
using System.Reflection.Metadata.Ecma335;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public sealed partial class IlMachine
{
    private const int MaxVarianceDepth = 16;

    /// <summary>Whether a (non-array) type implements the interface: listed by it or its bases, or variance-compatible with one listed.</summary>
    private bool Implements(IlNamed type, IlNamed face, int depth = 0)
    {
        if (depth > MaxVarianceDepth) throw new IlRefusal($"tests nested variance deeper than {MaxVarianceDepth} levels ({face.Key})");
        List<IlType> listed = AllInterfaces(type);
        if (type.IsInterface) listed.Insert(0, type);
        if (listed.Any(i => i.SameAs(face))) return true;
        if (listed.Any(i => i.Key == "System.Runtime.InteropServices.IDynamicInterfaceCastable"))
            throw new IlRefusal($"tests {type.Key} against {face.Key}: the object decides itself (IDynamicInterfaceCastable)");
        if (face.Arguments.Count == 0) return false;
        IReadOnlyList<GenericParameterAttributes> variances = Variances(face);
        if (variances.All(v => v == GenericParameterAttributes.None)) return false;
        return listed.OfType<IlNamed>().Any(i => SameDefinition(i, face) && VariantMatch(i, face, variances, depth));
    }

    /// <summary>`in`/`out` of each type parameter of a generic interface, from its definition.</summary>
    private static IReadOnlyList<GenericParameterAttributes> Variances(IlNamed face)
    {
        var md = IlResolver.Reader(face.ModulePath);
        return [.. md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(face.Token & 0xFFFFFF)).GetGenericParameters()
            .Select(h => md.GetGenericParameter(h).Attributes & GenericParameterAttributes.VarianceMask)];
    }

    private static bool SameDefinition(IlNamed a, IlNamed b) => a.Token == b.Token && a.ModulePath == b.ModulePath;

    private bool VariantMatch(IlNamed have, IlNamed want, IReadOnlyList<GenericParameterAttributes> variances, int depth)
    {
        for (int i = 0; i < want.Arguments.Count; i++)
        {
            IlType from = have.Arguments[i], to = want.Arguments[i];
            if (from.SameAs(to)) continue;
            GenericParameterAttributes variance = i < variances.Count ? variances[i] : GenericParameterAttributes.None;
            if (variance == GenericParameterAttributes.None || !IsReferenceType(from) || !IsReferenceType(to)) return false;
            bool fits = variance == GenericParameterAttributes.Covariant ? Assignable(from, to, depth + 1) : Assignable(to, from, depth + 1);
            if (!fits) return false;
        }
        return true;
    }

    private static bool IsReferenceType(IlType type) => type switch
    {
        IlPrimitive primitive => !primitive.IsValueType,
        IlNamed named => !named.IsValueType,
        IlArray => true,
        _ => throw new IlRefusal($"tests variance over the unresolved type {type.Key}"),
    };

    /// <summary>Whether a value of reference type `from` is a `to` by a reference conversion (what variance asks of type arguments).</summary>
    private bool Assignable(IlType from, IlType to, int depth)
    {
        if (from.SameAs(to) || to is IlPrimitive { ElementType: Engine.CorElementType.Object }) return true;
        if (from is IlArray array) return ArrayAssignable(array, to, depth);
        if (to is IlArray) return false;
        IlNamed source = resolver.AsNamed(from);
        if (to is IlNamed { IsInterface: true } face) return Implements(source, face, depth);
        for (IlNamed? level = source; level is not null; level = resolver.BaseOf(level) is { } b ? resolver.AsNamed(b) : null)
            if (level.SameAs(to)) return true;
        return false;
    }

    /// <summary>Array covariance: T[] is a U[] of the same rank where T is a reference type assignable to U.</summary>
    private bool ArrayAssignable(IlArray from, IlType to, int depth)
    {
        if (to.Key is "System.Array" or "System.ICloneable" or "System.Collections.IEnumerable" or "System.Collections.ICollection"
            or "System.Collections.IList") return true;
        if (to is not IlArray wanted) throw new IlRefusal($"tests an array type {from.Key} against {to.Key}");
        if (wanted.Rank != from.Rank) return false;
        if (IsReferenceType(from.Element) && IsReferenceType(wanted.Element)) return Assignable(from.Element, wanted.Element, depth + 1);
        if (from.Element.IsValueType && wanted.Element.IsValueType && !from.Element.SameAs(wanted.Element))
            throw new IlRefusal($"tests {from.Key} against {to.Key} (arrays of same-sized primitives and enums cast to each other)");
        return false;
    }

    /// <summary>An interface method called on an object that implements the interface only through variance
    /// (IEnumerable&lt;object&gt;.GetEnumerator on a List&lt;string&gt;): the same method of the instantiation the type lists.</summary>
    private IlMethod? VariantInterfaceMethod(IlMethod method, IlType runtimeType)
    {
        IlNamed face = method.DeclaringType;
        if (!face.IsInterface || face.Arguments.Count == 0 || runtimeType is IlArray) return null;
        IReadOnlyList<GenericParameterAttributes> variances = Variances(face);
        if (variances.All(v => v == GenericParameterAttributes.None)) return null;
        foreach (IlNamed listed in AllInterfaces(resolver.AsNamed(runtimeType)).OfType<IlNamed>())
            if (!listed.SameAs(face) && SameDefinition(listed, face) && VariantMatch(listed, face, variances, 0))
                return resolver.Method(listed, method.Token, method.MethodArguments);
        return null;
    }
}
