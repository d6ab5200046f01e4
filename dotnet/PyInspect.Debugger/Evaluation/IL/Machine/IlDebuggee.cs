// What the interpreter reads of the stopped debuggee: values turned into stack values,
// instance and static fields, array elements and lengths, an object's runtime type. Only
// reads: ICorDebug's Get* calls, no func-eval.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public sealed partial class IlDebuggee(IlResolver resolver, EvalContext context)
{
    private readonly IlFieldMemory _fieldMemory = new(context);

    /// <summary>A debuggee value as an interpreter value: numbers widened, strings read, objects and structs by reference.</summary>
    public object? Read(ICorDebugValue value)
    {
        if (value is ICorDebugReferenceValue reference)
        {
            if (reference.IsNull(out int isNull) < 0) throw new IlRefusal("cannot read a reference");
            if (isNull != 0) return null;
            if (reference.Dereference(out var target) < 0) throw new IlRefusal("cannot follow a reference");
            if (target is ICorDebugStringValue text) return ValueText.ReadString(text);
            return new DebuggeeObject(value, target);
        }
        if (value is ICorDebugStringValue direct) return ValueText.ReadString(direct);
        value.GetType(out int elementType);
        if (EvalValues.PrimitiveSize(elementType) is not null)
            return IlValue.ToStack(EvalValues.FromBytes(elementType, RawBytes(value)));
        if (elementType != CorElementType.ValueType || value is not ICorDebugValue2 typed || typed.GetExactType(out var exact) < 0)
            throw new IlRefusal($"cannot read a value of element type 0x{elementType:X}");
        return ReadStruct(value, TypeOf(exact));
    }

    private object? ReadStruct(ICorDebugValue value, IlType type)
    {
        byte[] raw = RawBytes(value);
        if (type is IlPrimitive primitive) return IlValue.ToStack(EvalValues.FromBytes(primitive.ElementType, raw));
        if (type is not IlNamed named) throw new IlRefusal($"cannot read a {type.Key}");
        if (named.Kind == IlTypeKind.Enum)
            return raw.Length switch { 1 => (int)(sbyte)raw[0], 2 => (int)BitConverter.ToInt16(raw), 4 => BitConverter.ToInt32(raw), _ => BitConverter.ToInt64(raw) };
        if (named.Name == "System.Decimal") return EvalValues.ReadDecimal(raw);
        return new DebuggeeStruct(value, named);
    }

    private static byte[] RawBytes(ICorDebugValue value) => ValueText.RawBytes(value) ?? throw new IlRefusal("cannot read a value's bytes");

    /// <summary>An ICorDebugType as an IlType (its class's module and token, its type arguments).</summary>
    public IlType TypeOf(ICorDebugType type)
    {
        if (type.GetType(out int elementType) < 0) throw new IlRefusal("cannot read a runtime type");
        switch (elementType)
        {
            case CorElementType.SzArray or CorElementType.Array:
                type.GetRank(out uint rank);
                if (type.GetFirstTypeParameter(out var element) < 0) throw new IlRefusal("cannot read an array's element type");
                return new IlArray(TypeOf(element), elementType == CorElementType.SzArray ? 1 : (int)Math.Max(rank, 2));
            case CorElementType.Class or CorElementType.ValueType:
                if (type.GetClass(out var cls) < 0 || cls.GetModule(out var module) < 0 || cls.GetToken(out int token) < 0)
                    throw new IlRefusal("cannot read a runtime class");
                return resolver.Named(DebuggerEngine.ModuleName(module), token, [.. TypeNames.TypeArguments(type).Select(TypeOf)]);
            default:
                return new IlPrimitive(elementType);
        }
    }

    /// <summary>The runtime type of a debuggee object (arrays, boxes and class instances).</summary>
    public IlType RuntimeType(DebuggeeObject obj)
    {
        if (obj.Target is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0) throw new IlRefusal("cannot read an object's type");
        return TypeOf(type);
    }

    private ICorDebugClass ClassOf(IlNamed type)
    {
        var module = resolver.Loaded(type.ModulePath) ?? throw new IlRefusal($"the module of {type.Name} is not loaded");
        if (module.Module.GetClassFromToken(type.Token, out var cls) < 0) throw new IlRefusal($"cannot find the class {type.Name}");
        return cls;
    }

    /// <summary>An instance field of a debuggee object or struct (as this evaluation filled it, if it filled it).</summary>
    public object? Field(object owner, IlField field)
    {
        // Primitive and decimal fields, read from memory once their offset is known (never a cache fill: those are references).
        if (owner is DebuggeeObject inMemory && _fieldMemory.TryRead(inMemory, field, out object? known)) return known;
        ICorDebugValue value = FieldValue(owner, field);
        if (CacheFills.Count > 0 && value.GetAddress(out ulong address) >= 0 && CacheFills.TryGetValue(address, out object? filled))
            return filled;
        if (owner is DebuggeeObject learned) _fieldMemory.Learn(learned, field, value);
        return Read(value);
    }

    private ICorDebugValue FieldValue(object owner, IlField field)
    {
        ICorDebugValue? target = owner switch
        {
            DebuggeeObject obj when obj.Target is ICorDebugBoxValue box => box.GetObject(out var inner) >= 0 ? inner : null,
            DebuggeeObject obj => obj.Target,
            DebuggeeStruct s => s.Value,
            _ => null,
        };
        if (target is not ICorDebugObjectValue objectValue) throw new IlRefusal($"reads field {field.DisplayName} of {IlValue.Describe(owner)}");
        int hr = objectValue.GetFieldValue(ClassOf(field.DeclaringType), field.Token, out var value);
        if (hr < 0) throw new IlRefusal($"cannot read field {field.DisplayName} (0x{hr:X8})");
        return value;
    }

    /// <summary>Lazy caches this evaluation filled, by the field's address in the debuggee: what the interpreted
    /// code stored into a reference field that held null. The debuggee itself is never written.</summary>
    private readonly Dictionary<ulong, object?> _cacheFills = [];
    private int _fillsGeneration = EvalContext.Generation;

    /// <summary>The fills, forgotten once a func-eval has run (a condition's fallback may run one): the GC may
    /// have moved objects since, so an address no longer names the field that was filled.</summary>
    private Dictionary<ulong, object?> CacheFills
    {
        get
        {
            if (_fillsGeneration != EvalContext.Generation)
            {
                _cacheFills.Clear();
                _fillsGeneration = EvalContext.Generation;
            }
            return _cacheFills;
        }
    }

    /// <summary>A store into a field of a debuggee object. Only a lazy cache's first fill is taken (a reference
    /// field that holds null: `_keys ??= new KeyCollection(this)`), and only for the rest of this evaluation, so
    /// the getter answers what it would answer and the program is left as it was; any other store is refused.</summary>
    public void FillCache(object owner, IlField field, object? value)
    {
        string what = $"stores into field {field.DisplayName} of a debuggee object";
        ICorDebugValue current = FieldValue(owner, field);
        if (current.GetType(out int elementType) < 0
            || elementType is not (CorElementType.Class or CorElementType.Object or CorElementType.String or CorElementType.SzArray or CorElementType.Array)
            || current.GetAddress(out ulong address) < 0 || address == 0)
            throw new IlRefusal(what);
        RefuseUnlessEmpty(CacheFills.TryGetValue(address, out object? filled) ? filled : Read(current), value, what);
        CacheFills[address] = value;
    }

    /// <summary>A cache is filled only while it is empty (or given what it already holds from this evaluation).</summary>
    private static void RefuseUnlessEmpty(object? held, object? value, string what)
    {
        if (held is not null && !ReferenceEquals(held, value))
            throw new IlRefusal($"{what} (it holds a value: only an empty cache is filled, and only inside the evaluation)");
    }

    /// <summary>Static lazy caches this evaluation filled (the compiler's cached lambdas, `s_x ??= ...`), by field.</summary>
    private readonly Dictionary<(string Type, int Token), object?> _staticFills = [];

    /// <summary>A store into a static: like FillCache, only a reference static that holds null is filled, for this evaluation only.</summary>
    public void FillStaticCache(IlField field, object? value)
    {
        string what = $"stores into static field {field.DisplayName}";
        if (field.FieldType.IsValueType || field.FieldType is IlGenericParameter) throw new IlRefusal(what);
        RefuseUnlessEmpty(Static(field), value, what);
        _staticFills[(field.DeclaringType.Key, field.Token)] = value;
    }

    /// <summary>A static field: refused where its class's static constructor may not have run (running it would be a side effect).
    /// A thread static is the stopped thread's, read through its frame: the thread func-eval would run on.</summary>
    public object? Static(IlField field)
    {
        if (_staticFills.Count > 0 && _staticFills.TryGetValue((field.DeclaringType.Key, field.Token), out object? filled)) return filled;
        if (context.ILFrame is null && IsThreadStatic(field))  // a frameless context (a condition's bound getter): the caller falls back
            throw new IlRefusal($"reads a thread-static field ({field.DisplayName}) with no frame to name the thread");
        RefuseBeforeStaticConstructor(field.DeclaringType, $"reads {field.DisplayName}");
        return ReadStatic(field) is StaticValue read ? read.Value : throw new IlRefusal($"cannot read static field {field.DisplayName}");
    }

    /// <summary>The value of a static field, or null where it cannot be read.</summary>
    private StaticValue? ReadStatic(IlField field)
    {
        ICorDebugValue value;
        if (field.DeclaringType.Arguments.Count > 0)
        {
            // A generic type's statics are per instantiation: read through the instantiated type.
            if (DebuggeeType(field.DeclaringType).GetStaticFieldValue(field.Token, context.ILFrame, out value) < 0) return null;
        }
        else if (ClassOf(field.DeclaringType).GetStaticFieldValue(field.Token, context.ILFrame, out value) < 0) return null;
        object? read = Read(value);
        // A static of a struct type lives boxed: read the struct itself.
        if (field.FieldType.IsValueType && read is DebuggeeObject boxed && boxed.Target is ICorDebugBoxValue) read = Unbox(boxed);
        return new StaticValue(read);
    }

    private sealed record StaticValue(object? Value);

    /// <summary>A type's TypeHandle in the debuggee (what `typeof(X).TypeHandle.Value` would be), or null where it has none yet.</summary>
    public unsafe ulong? TypeHandle(IlType type)
    {
        if (DebuggeeType(type) is not ICorDebugType2 typed) return null;
        CorTypeId id;
        return typed.GetTypeID(&id) >= 0 && id.Token1 != 0 ? id.Token1 : null;
    }

    /// <summary>A type as the debuggee's ICorDebugType (a generic instantiation built from its class and arguments).</summary>
    private unsafe ICorDebugType DebuggeeType(IlType type)
    {
        IlNamed named = type switch
        {
            IlNamed n => n,
            IlPrimitive p => resolver.PrimitiveAsNamed(p),
            _ => throw new IlRefusal($"needs the debuggee's type {type.Key}"),
        };
        if (ClassOf(named) is not ICorDebugClass2 generic) throw new IlRefusal($"cannot instantiate {named.Key} in the debuggee");
        var arguments = named.Arguments.Select(DebuggeeType).ToList();
        var pointers = arguments.Select(a => (nint)System.Runtime.InteropServices.Marshalling.ComInterfaceMarshaller<ICorDebugType>.ConvertToUnmanaged(a)).ToArray();
        try
        {
            int kind = named.IsValueType ? CorElementType.ValueType : CorElementType.Class;
            fixed (nint* p = pointers)
                if (generic.GetParameterizedType(kind, (uint)pointers.Length, p, out var instance) >= 0) return instance;
        }
        finally
        {
            foreach (nint pointer in pointers) System.Runtime.InteropServices.Marshal.Release(pointer);
        }
        throw new IlRefusal($"cannot instantiate {named.Key} in the debuggee");
    }

    private readonly Dictionary<string, bool> _initialized = new(StringComparer.Ordinal);

    /// <summary>Refuses when the type has a static constructor that may not have run yet. It has run when any of
    /// the type's static fields holds something other than its default; a type without static fields gives no evidence.</summary>
    public void RefuseBeforeStaticConstructor(IlNamed type, string what)
    {
        if (!IlResolver.HasStaticConstructor(type)) return;
        if (!_initialized.TryGetValue(type.Key, out bool ran))
        {
            ran = false;
            var md = IlResolver.Reader(type.ModulePath);
            foreach (var handle in md.GetTypeDefinition(System.Reflection.Metadata.Ecma335.MetadataTokens.TypeDefinitionHandle(type.Token & 0xFFFFFF)).GetFields())
            {
                var definition = md.GetFieldDefinition(handle);
                if ((definition.Attributes & (System.Reflection.FieldAttributes.Static | System.Reflection.FieldAttributes.Literal)) != System.Reflection.FieldAttributes.Static) continue;
                IlField field = resolver.Field(type, System.Reflection.Metadata.Ecma335.MetadataTokens.GetToken(handle));
                if (IsThreadStatic(field) || definition.GetRelativeVirtualAddress() != 0) continue;
                if (ReadStatic(field) is StaticValue { Value: not (null or 0 or 0L or 0.0) }) { ran = true; break; }
            }
            _initialized[type.Key] = ran;
        }
        if (!ran) throw new IlRefusal($"{what}, which would run the static constructor of {IlResolver.DisplayName(type.Name)} (it may not have run yet)");
    }

    private static bool IsThreadStatic(IlField field)
    {
        var md = IlResolver.Reader(field.DeclaringType.ModulePath);
        var definition = md.GetFieldDefinition(System.Reflection.Metadata.Ecma335.MetadataTokens.FieldDefinitionHandle(field.Token & 0xFFFFFF));
        foreach (var handle in definition.GetCustomAttributes())
        {
            var ctor = md.GetCustomAttribute(handle).Constructor;
            System.Reflection.Metadata.EntityHandle owner = ctor.Kind == System.Reflection.Metadata.HandleKind.MemberReference
                ? md.GetMemberReference((System.Reflection.Metadata.MemberReferenceHandle)ctor).Parent : default;
            if (owner.Kind == System.Reflection.Metadata.HandleKind.TypeReference
                && md.GetString(md.GetTypeReference((System.Reflection.Metadata.TypeReferenceHandle)owner).Name) == "ThreadStaticAttribute")
                return true;
        }
        return false;
    }

    /// <summary>Environment.CurrentManagedThreadId as the stopped thread would answer it (func-eval runs there):
    /// its Thread object's _managedThreadId, read (compiler-made iterators remember the thread that made them).</summary>
    public object? ManagedThreadId()
    {
        if (context.Module?.Module is not { } module || module.GetProcess(out nint pointer) < 0)
            throw new IlRefusal("cannot find the stopped thread's process");
        var process = DebuggerEngine.Wrap<ICorDebugProcess>(pointer);
        System.Runtime.InteropServices.Marshal.Release(pointer);
        if (process.GetThread(context.ThreadId, out var thread) < 0 || thread.GetObject(out var threadObject) < 0
            || Read(threadObject) is not DebuggeeObject managed || RuntimeType(managed) is not IlNamed type
            || resolver.InstanceFields(type).FirstOrDefault(f => f.Name == "_managedThreadId") is not { } field)
            throw new IlRefusal("cannot read the stopped thread's managed thread id");
        return Field(managed, field);
    }

    public int Length(DebuggeeObject array)
    {
        if (array.Target is not ICorDebugArrayValue values || values.GetCount(out uint count) < 0) throw new IlRefusal("reads the length of a non-array");
        return (int)count;
    }

    /// <summary>An element of a one-dimensional debuggee array; index checked as the runtime checks it.</summary>
    public object? Element(DebuggeeObject array, long index)
    {
        int length = Length(array);
        if (index < 0 || index >= length) throw IlErrors.IndexOutOfRange();
        ((ICorDebugArrayValue)array.Target).GetElementAtPosition((uint)index, out var element);
        return Read(element);
    }

    /// <summary>The value inside a debuggee box.</summary>
    public object? Unbox(DebuggeeObject boxed)
    {
        if (boxed.Target is not ICorDebugBoxValue box || box.GetObject(out var inner) < 0) throw new IlRefusal("unboxes a value that is not boxed");
        return Read(inner);
    }
}
