// Calls: virtual and interface calls dispatched on the receiver's runtime type (overrides
// found by name and instantiated signature, explicit implementations by MethodImpl),
// constrained calls on generic receivers, constructors of adapter-side objects, and the
// type tests of isinst/castclass.
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public sealed partial class IlMachine
{
    private void CallStep(Frame f, IlMethod method, bool virtualCall)
    {
        object?[] args = PopArgs(f, method.Parameters.Count + (method.IsStatic ? 0 : 1));
        IlType? constrained = f.Constrained;
        f.Constrained = null;
        IlMethod target = method;
        if (method.IsStatic && constrained is not null) target = Devirtualize(method, constrained);  // a static abstract (generic math)
        else if (!method.IsStatic)
        {
            if (constrained is not null) (target, args[0]) = Constrain(constrained, method, args[0]);
            else if (virtualCall)
            {
                if (args[0] is null) throw IlErrors.NullReference();
                if (method.IsVirtual && args[0] is not IlRef)
                {
                    target = Devirtualize(method, RuntimeType(args[0]!));
                    args[0] = ThisFor(target, args[0]!);
                }
            }
        }
        object? result = Run(target, args);
        if (method.ReturnType is not IlPrimitive { ElementType: Engine.CorElementType.Void })
            f.Stack.Push(IlValue.Narrow(IlValue.ToStack(result), method.ReturnType));
    }

    /// <summary>`this` for a body a virtual call dispatched to: a struct's own method runs on a pointer into
    /// the box (what the runtime's unboxing stub passes), so its stores change the box, as they would.</summary>
    public static object ThisFor(IlMethod body, object receiver) => receiver switch
    {
        LocalBox box when body.DeclaringType.IsValueType => new BoxRef(box),
        _ => receiver,
    };

    /// <summary>`constrained. T callvirt M`: on a reference type the pointer is dereferenced and the call is virtual;
    /// on a struct, T's own implementation runs on the pointer (one inherited from object would need a box: refused).</summary>
    private (IlMethod, object?) Constrain(IlType type, IlMethod method, object? pointer)
    {
        if (!type.IsValueType)
        {
            object? self = Deref(pointer) ?? throw IlErrors.NullReference();
            return (method.IsVirtual ? Devirtualize(method, RuntimeType(self)) : method, self);
        }
        IlNamed named = resolver.AsNamed(type);
        if (FindImplementation(named, method) is { } own) return (own, pointer);
        throw new IlRefusal($"calls {method.DisplayName} on a boxed {type.Key}");
    }

    /// <summary>The body a virtual or interface call runs for an object of the runtime type.</summary>
    public IlMethod Devirtualize(IlMethod method, IlType runtimeType, bool viaVariance = true)
    {
        if (runtimeType is IlArray) throw new IlRefusal($"calls {method.DisplayName} on an array");
        IlNamed? level = resolver.AsNamed(runtimeType);
        for (int depth = 0; level is not null && depth < 64; depth++)
        {
            if (FindImplementation(level, method) is { } found) return found;
            if (!method.DeclaringType.IsInterface && level.SameAs(method.DeclaringType)) return method;
            level = resolver.BaseOf(level) is { } baseType ? resolver.AsNamed(baseType) : null;
        }
        if (viaVariance && VariantInterfaceMethod(method, runtimeType) is { } variant) return Devirtualize(variant, runtimeType, false);
        if ((method.Attributes & MethodAttributes.Abstract) == 0) return method;  // a default interface method
        throw new IlRefusal($"finds no implementation of {method.DisplayName} on {runtimeType.Key}");
    }

    /// <summary>The method of `level` itself that implements or overrides `method`, or null.</summary>
    private IlMethod? FindImplementation(IlNamed level, IlMethod method)
    {
        var md = IlResolver.Reader(level.ModulePath);
        var typeDef = md.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(level.Token & 0xFFFFFF));
        var context = new IlGenericContext(level.Arguments, method.MethodArguments);
        foreach (var handle in typeDef.GetMethodImplementations())
        {
            var impl = md.GetMethodImplementation(handle);
            IlMethod declared = resolver.ResolveMethod(level.ModulePath, MetadataTokens.GetToken(impl.MethodDeclaration), context);
            if (declared.Token != method.Token || declared.ModulePath != method.ModulePath || !declared.DeclaringType.SameAs(method.DeclaringType)) continue;
            IlMethod body = resolver.ResolveMethod(level.ModulePath, MetadataTokens.GetToken(impl.MethodBody), context);
            return resolver.Method(level, body.Token, method.MethodArguments);
        }
        bool ownType = level.SameAs(method.DeclaringType);
        foreach (var handle in typeDef.GetMethods())
        {
            var definition = md.GetMethodDefinition(handle);
            if (!md.StringComparer.Equals(definition.Name, method.Name)) continue;
            if ((definition.Attributes & MethodAttributes.Virtual) == 0 && !ownType && !method.IsStatic) continue;
            if (!method.DeclaringType.IsInterface && !ownType && (definition.Attributes & MethodAttributes.NewSlot) != 0) continue;
            if (definition.GetGenericParameters().Count != method.MethodArguments.Count) continue;
            IlMethod candidate = resolver.Method(level, MetadataTokens.GetToken(handle), method.MethodArguments);
            if (candidate.IsStatic != method.IsStatic || !candidate.ReturnType.SameAs(method.ReturnType) || candidate.Parameters.Count != method.Parameters.Count) continue;
            if (candidate.Parameters.Zip(method.Parameters).All(p => p.First.SameAs(p.Second))) return candidate;
        }
        return null;
    }

    private object? NewObject(Frame f, IlMethod constructor)
    {
        object?[] args = PopArgs(f, constructor.Parameters.Count);
        if (IlIntrinsics.TryConstruct(constructor, args, out object? made)) return made;
        IlNamed type = constructor.DeclaringType;
        if (IsDelegateType(type)) return MakeDelegate(type, args);
        if (type.IsValueType)
        {
            var slot = new[] { Default(type) };
            Run(constructor, [new SlotRef(slot, 0), .. args]);
            return slot[0];
        }
        var obj = new LocalObject(type);
        Run(constructor, [obj, .. args]);
        return obj;
    }

    /// <summary>What `throw` throws, as the exception the caller is answered with.</summary>
    private Exception Thrown(object? value)
    {
        if (value is null) return IlErrors.NullReference();
        if (value is not LocalObject exception) return new IlRefusal("throws an exception object that lives in the debuggee");
        if (exception.Fields.GetValueOrDefault("_message") is not string message)
            return new IlRefusal($"throws {exception.Type.Name} without a message");
        return new IlThrown(exception.Type.Name, message) { Object = exception };
    }

    /// <summary>isinst/castclass: whether a non-null value is of a type; refused where arrays would need the runtime's rules.</summary>
    public bool IsInstance(object value, IlType target)
    {
        if (target is IlPrimitive { ElementType: Engine.CorElementType.Object }) return true;
        IlType actual = RuntimeType(value);
        if (actual.SameAs(target)) return true;
        if (actual is IlArray array)
        {
            if (target is IlArray wanted && wanted.Element.SameAs(array.Element) && wanted.Rank == array.Rank) return true;
            if (target.Key == "System.Array") return true;
            // An array's classes are itself, System.Array and object: any other class (string, ...) is not one.
            if (target is IlPrimitive or IlNamed { IsInterface: false }) return false;
            throw new IlRefusal($"tests an array against {target.Key}");
        }
        if (target is IlArray) return false;
        if (target is IlNamed { IsInterface: true } face) return Implements(resolver.AsNamed(actual), face);  // IlVariance.cs
        IlNamed? level = resolver.AsNamed(actual);
        for (int depth = 0; level is not null && depth < 64; depth++)
        {
            if (level.SameAs(target) || (target is IlPrimitive p && level.Key == p.Key)) return true;
            level = resolver.BaseOf(level) is { } baseType ? resolver.AsNamed(baseType) : null;
        }
        return false;
    }

    public List<IlType> AllInterfaces(IlNamed type)
    {
        var found = new List<IlType>();
        var pending = new Stack<IlNamed>();
        for (IlNamed? level = type; level is not null; level = resolver.BaseOf(level) is { } b ? resolver.AsNamed(b) : null)
            pending.Push(level);
        while (pending.Count > 0 && found.Count < 256)
        {
            foreach (var face in resolver.InterfacesOf(pending.Pop()))
            {
                if (found.Any(x => x.SameAs(face))) continue;
                found.Add(face);
                if (face is IlNamed named) pending.Push(named);
            }
        }
        return found;
    }
}

public sealed partial class IlMachine
{
    /// <summary>An object's text by its own ToString override (interpreted); object's own ToString (the type name) is refused.</summary>
    public string FormatByToString(object value)
    {
        IlNamed root = resolver.PrimitiveAsNamed(IlPrimitive.Object);
        IlMethod toString = Devirtualize(resolver.MethodsNamed(root, "ToString").First(), RuntimeType(value));
        if (toString.DeclaringType.SameAs(root)) throw new IlRefusal("formats an object without a ToString of its own");
        return Run(toString, [value]) as string ?? "";
    }
}
