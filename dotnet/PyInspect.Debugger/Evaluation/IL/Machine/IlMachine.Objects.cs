// Fields, statics, arrays, boxes, casts and pointers: debuggee memory is read (never written),
// adapter-side objects are read and written.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public sealed partial class IlMachine
{
    private Step ObjectStep(Frame f, string name, object? operand)
    {
        int token = operand is int t ? t : 0;
        IlType Type() => resolver.ResolveType(f.Method.ModulePath, token, f.Method.Context);
        IlField Field() => resolver.ResolveField(f.Method.ModulePath, token, f.Method.Context);
        switch (name)
        {
            case "call" or "callvirt":
                CallStep(f, resolver.ResolveMethod(f.Method.ModulePath, token, f.Method.Context), name == "callvirt");
                return Step.Next;
            case "newobj":
                f.Stack.Push(NewObject(f, resolver.ResolveMethod(f.Method.ModulePath, token, f.Method.Context)));
                return Step.Next;
            case "ldfld":
                f.Stack.Push(IlValue.CopyIfStruct(LoadField(Pop(f), Field())));
                return Step.Next;
            case "ldflda":
                f.Stack.Push(FieldAddress(Pop(f), Field()));
                return Step.Next;
            case "stfld":
            {
                object? value = Pop(f), owner = Pop(f);
                StoreField(owner, Field(), value);
                return Step.Next;
            }
            case "ldsfld":
            {
                IlField field = Field();
                f.Stack.Push(_debuggee.Static(field));
                return Step.Next;
            }
            case "ldsflda":
            {
                IlField field = Field();
                f.Stack.Push(new DebuggeeRef(_debuggee.Static(field), $"static field {field.DisplayName}"));
                return Step.Next;
            }
            case "stsfld":
                _debuggee.FillStaticCache(Field(), Pop(f));
                return Step.Next;
            case "ldftn":
                f.Stack.Push(new MethodPointer(resolver.ResolveMethod(f.Method.ModulePath, token, f.Method.Context)));
                return Step.Next;
            case "ldvirtftn":
                f.Stack.Push(VirtualPointer(Pop(f), resolver.ResolveMethod(f.Method.ModulePath, token, f.Method.Context)));
                return Step.Next;
            case "ldlen":
                f.Stack.Push(Pop(f) switch
                {
                    null => throw IlErrors.NullReference(),
                    LocalArray array => array.Items.Length,
                    DebuggeeObject obj => _debuggee.Length(obj),
                    var other => throw new IlRefusal($"reads the length of {IlValue.Describe(other)}"),
                });
                return Step.Next;
            case "newarr":
            {
                IlType element = Type();
                long length = IlValue.AsLong(Pop(f));
                if (length < 0) throw IlErrors.Overflow();
                if (length > 1_000_000) throw new IlRefusal($"makes an array of {length} elements");
                var items = new object?[length];
                for (int i = 0; i < items.Length; i++) items[i] = Default(element);
                f.Stack.Push(new LocalArray(element, items));
                return Step.Next;
            }
            case "ldelema":
            {
                long i = IlValue.AsLong(Pop(f));
                object? array = Pop(f);
                f.Stack.Push(array switch
                {
                    null => throw IlErrors.NullReference(),
                    LocalArray local => i >= 0 && i < local.Items.Length ? new ElementRef(local, (int)i) : throw IlErrors.IndexOutOfRange(),
                    DebuggeeObject obj => i >= 0 && i < _debuggee.Length(obj) ? new DebuggeeElementRef(_debuggee, obj, i) : throw IlErrors.IndexOutOfRange(),
                    _ => throw new IlRefusal($"indexes {IlValue.Describe(array)}"),
                });
                return Step.Next;
            }
            case "box":
                f.Stack.Push(Box(Pop(f), Type()));
                return Step.Next;
            case "unbox.any":
                f.Stack.Push(UnboxAny(Pop(f), Type()));
                return Step.Next;
            case "unbox":
            {
                object? boxed = Pop(f);
                f.Stack.Push(boxed switch
                {
                    null => throw IlErrors.NullReference(),
                    LocalBox box => new BoxRef(box),
                    DebuggeeObject obj => new DebuggeeRef(_debuggee.Unbox(obj), "a debuggee box"),
                    _ => throw new IlRefusal($"unboxes {IlValue.Describe(boxed)}"),
                });
                return Step.Next;
            }
            case "isinst":
            {
                object? value = Pop(f);
                f.Stack.Push(value is not null && IsInstance(value, Type()) ? value : null);
                return Step.Next;
            }
            case "castclass":
            {
                object? value = Pop(f);
                IlType target = Type();
                if (value is not null && !IsInstance(value, target))
                    throw IlErrors.InvalidCast(RuntimeType(value).Key, target.Key);
                f.Stack.Push(value);
                return Step.Next;
            }
            case "initobj":
            {
                IlType type = Type();
                if (Pop(f) is not IlRef target) throw new IlRefusal("initializes something that is not a pointer");
                target.Set(Default(type));
                return Step.Next;
            }
            case "ldobj":
                f.Stack.Push(IlValue.CopyIfStruct(Deref(Pop(f))));
                return Step.Next;
            case "stobj":
            {
                IlType type = Type();
                object? value = Pop(f);
                Store(Pop(f), IlValue.Narrow(value, type));
                return Step.Next;
            }
        }
        if (name.StartsWith("ldind.", StringComparison.Ordinal))
        {
            f.Stack.Push(IlValue.CopyIfStruct(Deref(Pop(f))));
            return Step.Next;
        }
        if (name.StartsWith("stind.", StringComparison.Ordinal))
        {
            object? value = Pop(f);
            Store(Pop(f), value);
            return Step.Next;
        }
        if (name.StartsWith("ldelem", StringComparison.Ordinal))
        {
            long i = IlValue.AsLong(Pop(f));
            f.Stack.Push(IlValue.CopyIfStruct(Pop(f) switch
            {
                null => throw IlErrors.NullReference(),
                LocalArray local => i >= 0 && i < local.Items.Length ? local.Items[i] : throw IlErrors.IndexOutOfRange(),
                DebuggeeObject obj => _debuggee.Element(obj, i),
                var other => throw new IlRefusal($"indexes {IlValue.Describe(other)}"),
            }));
            return Step.Next;
        }
        if (name.StartsWith("stelem", StringComparison.Ordinal))
        {
            object? value = Pop(f);
            long i = IlValue.AsLong(Pop(f));
            switch (Pop(f))
            {
                case null: throw IlErrors.NullReference();
                case LocalArray local:
                    if (i < 0 || i >= local.Items.Length) throw IlErrors.IndexOutOfRange();
                    local.Items[i] = IlValue.Narrow(IlValue.CopyIfStruct(value), local.Element);
                    return Step.Next;
                case DebuggeeObject:
                    throw new IlRefusal("stores into an element of a debuggee array");
                default:
                    throw new IlRefusal("stores into an element of something that is not an array");
            }
        }
        if (name == "ldtoken")
        {
            switch (System.Reflection.Metadata.Ecma335.MetadataTokens.EntityHandle(token).Kind)
            {
                case System.Reflection.Metadata.HandleKind.FieldDefinition:
                    f.Stack.Push(new FieldToken(Field()));  // for RuntimeHelpers.InitializeArray (array initializers)
                    return Step.Next;
                case System.Reflection.Metadata.HandleKind.TypeDefinition or System.Reflection.Metadata.HandleKind.TypeReference
                    or System.Reflection.Metadata.HandleKind.TypeSpecification:
                    f.Stack.Push(IlTypeValues.Handle(Type()));  // typeof(T): an adapter-side type, never a debuggee Type
                    return Step.Next;
            }
        }
        throw new IlRefusal(name switch
        {
            "ldtoken" => "reads the runtime handle of a method or a field (ldtoken)",
            "sizeof" => "asks the runtime for a type's size (sizeof)",
            "localloc" => "allocates on the stack (localloc)",
            "rethrow" => "rethrows an exception",
            _ => $"uses the IL instruction {name}",
        });
    }

    private object? Deref(object? pointer) => pointer switch
    {
        IlRef reference => reference.Get(),
        null => throw IlErrors.NullReference(),
        _ => throw new IlRefusal($"reads through {IlValue.Describe(pointer)} as a pointer"),
    };

    private static void Store(object? pointer, object? value)
    {
        if (pointer is not IlRef reference) throw new IlRefusal($"stores through {IlValue.Describe(pointer)} as a pointer");
        reference.Set(value);
    }

    private object? LoadField(object? owner, IlField field)
    {
        if (owner is IlRef reference) owner = reference.Get();
        switch (owner)
        {
            case null:
                throw IlErrors.NullReference();
            case LocalObject local:
                return local.Fields.TryGetValue(field.Name, out object? value) ? value : local.Fields[field.Name] = Default(field.FieldType);
            case DebuggeeObject or DebuggeeStruct:
                return _debuggee.Field(owner, field);
            case LocalBox box:
                return LoadField(box.Value, field);
            case int or long or double when IlPrimitive.ElementTypeOf(field.DeclaringType.Name) is not null:
                return owner;  // m_value of a primitive: the value itself (never a field read through a native pointer)
            case string text when field.Name == "_stringLength":
                return text.Length;
            default:
                throw new IlRefusal($"reads field {field.DisplayName} of {IlValue.Describe(owner)}");
        }
    }

    private IlRef FieldAddress(object? owner, IlField field)
    {
        object? target = owner is IlRef reference ? reference.Get() : owner;
        if (target is DebuggeeStruct && owner is SlotRef or FieldRef or ElementRef or BoxRef)
        {
            // A debuggee struct copied into an adapter slot: the copy is the adapter's to change.
            target = Materialize((DebuggeeStruct)target);
            ((IlRef)owner).Set(target);
            target = ((IlRef)owner).Get();
        }
        return target switch
        {
            null => throw IlErrors.NullReference(),
            LocalObject local => new FieldRef(local, field.Name, () => Default(field.FieldType)),
            DebuggeeObject or DebuggeeStruct => new DebuggeeFieldRef(_debuggee, target, field),
            LocalBox box when box.Value is LocalObject inner => new FieldRef(inner, field.Name, () => Default(field.FieldType)),
            _ => throw new IlRefusal($"takes the address of field {field.DisplayName} of {IlValue.Describe(target)}"),
        };
    }

    private void StoreField(object? owner, IlField field, object? value)
    {
        object? target = owner is IlRef reference ? reference.Get() : owner;
        if (target is DebuggeeStruct copied && owner is SlotRef or FieldRef or ElementRef or BoxRef)
        {
            target = Materialize(copied);
            ((IlRef)owner).Set(target);
            target = ((IlRef)owner).Get();
        }
        switch (target)
        {
            case null:
                throw IlErrors.NullReference();
            case LocalObject local:
                local.Fields[field.Name] = IlValue.Narrow(IlValue.CopyIfStruct(value), field.FieldType);
                return;
            case DebuggeeObject or DebuggeeStruct:
                _debuggee.FillCache(target, field, value);
                return;
            default:
                throw new IlRefusal($"stores into field {field.DisplayName} of {IlValue.Describe(target)}");
        }
    }

    /// <summary>A debuggee struct read into an adapter-side one, field by field (bases of structs have no fields).</summary>
    private LocalObject Materialize(DebuggeeStruct value)
    {
        var local = new LocalObject(value.Type);
        foreach (var field in resolver.InstanceFields(value.Type))
            local.Fields[field.Name] = _debuggee.Field(value, field) is DebuggeeStruct inner ? Materialize(inner) : _debuggee.Field(value, field);
        return local;
    }

    private object? Box(object? value, IlType type)
    {
        if (!type.IsValueType) return value;
        if (type is IlNamed { Name: "System.Nullable`1" } nullable)
        {
            object? hasValue = LoadField(value, resolver.InstanceFields(nullable).First(x => x.Name == "hasValue"));
            return IlValue.AsLong(hasValue) == 0 ? null : Box(LoadField(value, resolver.InstanceFields(nullable).First(x => x.Name == "value")), nullable.Arguments[0]);
        }
        return new LocalBox(IlValue.Narrow(value, type), type);
    }

    private object? UnboxAny(object? value, IlType type)
    {
        if (!type.IsValueType)
        {
            if (value is not null && !IsInstance(value, type)) throw IlErrors.InvalidCast(RuntimeType(value).Key, type.Key);
            return value;
        }
        if (type is IlNamed { Name: "System.Nullable`1" }) throw new IlRefusal("unboxes into a Nullable");
        if (value is null) throw IlErrors.NullReference();
        IlType actual = RuntimeType(value);
        if (!SameBoxedType(actual, type)) throw IlErrors.InvalidCast(actual.Key, type.Key);
        return value switch
        {
            LocalBox box => IlValue.CopyIfStruct(box.Value),
            DebuggeeObject obj => _debuggee.Unbox(obj),
            _ => throw new IlRefusal($"unboxes {IlValue.Describe(value)}"),
        };
    }

    /// <summary>An enum boxes as itself but unboxes to its underlying type too, as the runtime allows.</summary>
    private bool SameBoxedType(IlType actual, IlType wanted) =>
        actual.SameAs(wanted)
        || (actual is IlNamed { Kind: IlTypeKind.Enum } e && resolver.InstanceFields(e).FirstOrDefault()?.FieldType.SameAs(wanted) == true)
        || (wanted is IlNamed { Kind: IlTypeKind.Enum } w && resolver.InstanceFields(w).FirstOrDefault()?.FieldType.SameAs(actual) == true);

    /// <summary>The runtime type of a reference on the stack.</summary>
    public IlType RuntimeType(object value) => value switch
    {
        DebuggeeObject obj => _debuggee.RuntimeType(obj),
        LocalObject local => local.Type,
        LocalBox box => box.Type,
        LocalArray array => new IlArray(array.Element, 1),
        string => IlPrimitive.String,
        TypeValue => IlTypeValues.RuntimeTypeClass(resolver),
        MadeDelegate made => made.Type,
        _ => throw new IlRefusal($"asks the runtime type of {IlValue.Describe(value)}"),
    };
}
