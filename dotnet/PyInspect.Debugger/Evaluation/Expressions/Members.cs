// Member access: fields read straight from the debuggee (auto-properties through their
// backing fields), other property getters run by func-eval, constants from metadata,
// members of local strings and numbers computed here.
using System.Reflection;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Getters;

namespace PyInspect.Debugger.Evaluation.Expressions;

public static class Members
{
    public static object? Instance(Interpreter interpreter, object? target, string name, string ownerText)
    {
        if (name is "HasValue" or "Value" && target is RemoteValue nullable && IsNullableType(nullable))
        {
            object? inner = EvalValues.Local(nullable);
            if (name == "HasValue") return inner is not null;
            return inner ?? throw new EvalException($"'{ownerText}' is null: Nullable object must have a value (InvalidOperationException)");
        }
        // A Nullable an interpreted call made: with a value (MadeValue), or without (NullOf typed T?).
        if (name is "HasValue" or "Value" && target is MadeValue { Unwrapped: { } lifted }) return name == "HasValue" ? true : lifted;
        if (name is "HasValue" or "Value" && target is NullOf { TypeName: var declared } && declared.EndsWith('?'))
            return name == "HasValue" ? false
                : throw new EvalException($"'{ownerText}' is null: Nullable object must have a value (InvalidOperationException)");
        object? local = EvalValues.Local(target);
        if (local is null) throw new EvalException($"cannot read '{name}' of null '{ownerText}' (NullReferenceException)");
        if (local is RemoteValue remote)
        {
            if (ValuePath.Dereference(remote.Value) is ICorDebugArrayValue array) return ArrayMember(array, name, ownerText);
            if (StaticOwner(remote, name) is { } owner)
                throw new EvalException($"'{owner}.{name}' cannot be accessed with an instance reference; qualify it with a type name instead (CS0176)");
            if (TryInstance(interpreter, remote, name, out object? value)) return value;
            throw new EvalException($"'{name}' is not a field or property of '{ownerText}' ({Display.RuntimeTypeName(remote)})");
        }
        return local switch
        {
            PairValue pair when name == "Key" => pair.Key,
            PairValue pair when name == "Value" => pair.Value,
            SequenceValue sequence when name is "Count" or "Length" => sequence.Items.Count,
            GroupingValue group when name == "Key" => group.Key,
            AnonymousValue anonymous when anonymous.Members.Any(m => m.Key == name) => anonymous.Members.First(m => m.Key == name).Value,
            MadeValue made => MadeMember(interpreter, made, name, ownerText),
            TypeOfValue type when name == "FullName" => type.FullName,
            TypeOfValue type when name == "Name" => type.FullName.Contains('<') ? type.FullName : type.FullName[(type.FullName.LastIndexOfAny(['.', '+']) + 1)..],
            TypeOfValue type when name == "Namespace" => type.FullName.LastIndexOf('.') is var dot and > 0 && !type.FullName.Contains('<') ? type.FullName[..dot] : null,
            _ => LocalProperty(local, name, ownerText),
        };
    }

    /// <summary>A field of a struct or object the interpreter made, or a getter interpreted on it.</summary>
    private static object? MadeMember(Interpreter interpreter, MadeValue made, string name, string ownerText)
    {
        foreach (var field in made.Fields)
            if (field.Key == name) return field.Value;
        if (IlCalls.TryGetterOfMade(interpreter.Context, made, name, out object? value)) return value;
        throw new EvalException($"'{name}' is not a field or property of '{ownerText}' ({made.TypeName})");
    }

    private static bool IsNullableType(RemoteValue value) => Display.RuntimeTypeName(value).EndsWith('?');

    private static object ArrayMember(ICorDebugArrayValue array, string name, string ownerText)
    {
        array.GetCount(out uint count);
        array.GetRank(out uint rank);
        return name switch
        {
            "Length" => (object)(int)count,
            "LongLength" => (object)(long)count,
            "Rank" => (object)(int)rank,
            _ => throw new EvalException($"'{name}' is not a field of '{ownerText}' (an array)"),
        };
    }

    /// <summary>A public instance property of a local value (string.Length, ...), computed here.</summary>
    private static object? LocalProperty(object local, string name, string ownerText)
    {
        PropertyInfo? property = local.GetType().GetProperty(name, BindingFlags.Public | BindingFlags.Instance);
        if (property is null || property.GetIndexParameters().Length > 0)
            throw new EvalException($"'{name}' is not a field or property of '{ownerText}' ({Display.RuntimeTypeName(local)})");
        return property.GetValue(local);
    }

    /// <summary>The type declaring `name` when the object's member by that name (the most
    /// derived one) is static; null when it is an instance member or there is none.</summary>
    private static string? StaticOwner(RemoteValue self, string name)
    {
        if (ValuePath.Dereference(self.Value) is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0) return null;
        foreach (var (_, _, md, token) in Levels(type))
        {
            bool? isStatic = md.Fields(token).FirstOrDefault(f => f.Name == name || ModuleMetadata.FieldDisplayName(f.Name) == name)?.IsStatic
                ?? md.Properties(token).FirstOrDefault(p => p.Name == name && p.IndexCount == 0)?.IsStatic;
            if (isStatic is { } found) return found ? md.GetTypeName(token) : null;
        }
        return null;
    }

    /// <summary>An instance field or property of a debuggee object, looked up from the runtime type down to its bases.</summary>
    public static bool TryInstance(Interpreter interpreter, RemoteValue self, string name, out object? value)
    {
        value = null;
        ICorDebugValue? target = ValuePath.Dereference(self.Value);
        if (target is not ICorDebugObjectValue obj || target is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0)
            return false;
        foreach (var (level, cls, md, token) in Levels(type))
        {
            if (FieldBackedMembers.TryGetValue((md.GetTypeName(token), name), out var read) && read(self.Value) is { } known)
            {
                value = known;
                return true;
            }
            foreach (var field in md.Fields(token))
            {
                if (field.Name != name && ModuleMetadata.FieldDisplayName(field.Name) != name) continue;
                value = FieldValue(interpreter.Context, obj, level, cls, field);
                return true;
            }
            if (md.Properties(token).FirstOrDefault(p => p.Name == name && p.IndexCount == 0) is { } property)
            {
                value = CallGetter(interpreter.Context, cls, level, property, property.IsStatic ? [] : [self.Value]);
                return true;
            }
        }
        return false;
    }

    /// <summary>Well-known BCL properties whose value is a field (or two): read from memory, no getter runs.</summary>
    private static readonly Dictionary<(string Class, string Member), Func<ICorDebugValue, object?>> FieldBackedMembers = new()
    {
        [("System.Collections.Generic.List`1", "Count")] = v => Raw(v, "_size"),
        [("System.Collections.Generic.Queue`1", "Count")] = v => Raw(v, "_size"),
        [("System.Collections.Generic.Stack`1", "Count")] = v => Raw(v, "_size"),
        [("System.Collections.Generic.Dictionary`2", "Count")] = v => UsedEntries(v),
        [("System.Collections.Generic.HashSet`1", "Count")] = v => UsedEntries(v),
        [("System.Collections.Generic.KeyValuePair`2", "Key")] = v => Raw(v, "key"),
        [("System.Collections.Generic.KeyValuePair`2", "Value")] = v => Raw(v, "value"),
        [("System.Collections.ObjectModel.Collection`1", "Count")] = v => RawField(v, "items") is { } items
            && Members.ClassName(items) == "System.Collections.Generic.List`1" ? Raw(items, "_size") : null,
    };

    private static RemoteValue? Raw(ICorDebugValue value, string field) => RawField(value, field) is { } read ? new RemoteValue(read) : null;

    /// <summary>Dictionary/HashSet Count as its getter computes it: _count - _freeCount.</summary>
    private static object? UsedEntries(ICorDebugValue value) =>
        RawField(value, "_count") is { } count && RawField(value, "_freeCount") is { } free
            && EvalValues.FromDebuggee(count) is int used && EvalValues.FromDebuggee(free) is int freed ? used - freed : null;

    /// <summary>The runtime type and its bases, each with its class and metadata (System.Object included).</summary>
    public static IEnumerable<(ICorDebugType Level, ICorDebugClass Class, ModuleMetadata Metadata, int Token)> Levels(ICorDebugType type)
    {
        ICorDebugType? current = type;
        for (int depth = 0; current is not null && depth < 32; depth++)
        {
            if (current.GetClass(out var cls) < 0 || cls.GetModule(out var module) < 0 || cls.GetToken(out int token) < 0) yield break;
            if (ModuleMetadata.TryOpen(DebuggerEngine.ModuleName(module)) is { } md) yield return (current, cls, md, token);
            if (current.GetBase(out var baseType) < 0) yield break;
            current = baseType;
        }
    }

    internal static object? FieldValue(EvalContext context, ICorDebugObjectValue? obj, ICorDebugType? level, ICorDebugClass cls, EvalField field)
    {
        if (field.IsLiteral) return field.Constant;
        int hr;
        ICorDebugValue value;
        if (field.IsStatic)
        {
            hr = level is not null && TypeNames.TypeArguments(level).Count > 0
                ? level.GetStaticFieldValue(field.Token, context.ILFrame, out value)
                : cls.GetStaticFieldValue(field.Token, context.ILFrame, out value);
        }
        else
        {
            hr = obj!.GetFieldValue(cls, field.Token, out value);
        }
        if (hr < 0) throw new EvalException($"cannot read field '{ModuleMetadata.FieldDisplayName(field.Name)}' (0x{hr:X8}; a static field of a class not yet initialized?)");
        return new RemoteValue(value);
    }

    internal static object? CallGetter(EvalContext context, ICorDebugClass cls, ICorDebugType? level, EvalProperty property, ICorDebugValue[] arguments)
    {
        if (cls.GetModule(out var module) < 0 || module.GetFunctionFromToken(property.GetterToken, out var getter) < 0)
            throw new EvalException($"cannot find the getter of '{property.Name}'");
        IReadOnlyList<ICorDebugType> typeArguments = level is null ? [] : TypeNames.TypeArguments(level);
        if (IlCalls.TryRun(context, getter, typeArguments, arguments.Length > 0 ? arguments[0] : null, [], out object? interpreted))
            return interpreted;
        ICorDebugValue? result = context.Call(getter, typeArguments, arguments);
        return result is null ? null : new RemoteValue(result);
    }

    /// <summary>A static field, constant or property of a named type (enum members included).</summary>
    public static bool TryStatic(Interpreter interpreter, TypeRef type, string name, out object? value)
    {
        value = null;
        if (ModuleMetadata.TryOpen(type.Module.Path) is not { } md) return false;
        if (type.Module.Module.GetClassFromToken(type.Token, out var cls) < 0) return false;
        foreach (var field in md.Fields(type.Token))
        {
            if (!field.IsStatic || (field.Name != name && ModuleMetadata.FieldDisplayName(field.Name) != name)) continue;
            value = field.IsLiteral && IsEnum(type) ? EnumFromNumber(type, System.Convert.ToInt64(field.Constant))
                : FieldValue(interpreter.Context, null, null, cls, field);
            return true;
        }
        if (md.Properties(type.Token).FirstOrDefault(p => p.Name == name && p.IsStatic && p.IndexCount == 0) is { } property)
        {
            value = CallGetter(interpreter.Context, cls, null, property, []);
            return true;
        }
        return false;
    }

    /// <summary>Whether a type's static member of that name is a field (not a property or constant).</summary>
    public static bool IsStaticField(TypeRef type, string name) =>
        ModuleMetadata.TryOpen(type.Module.Path)?.Fields(type.Token).Any(f => f.IsStatic && !f.IsLiteral
            && (f.Name == name || ModuleMetadata.FieldDisplayName(f.Name) == name)) == true;

    /// <summary>A field of an object or struct by metadata name (internals such as List's _items), or null.</summary>
    public static ICorDebugValue? RawField(ICorDebugValue value, string name)
    {
        ICorDebugValue? target = ValuePath.Dereference(value);
        if (target is not ICorDebugObjectValue obj || target is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0)
            return null;
        foreach (var (_, cls, md, token) in Levels(type))
            foreach (var field in md.Fields(token))
                if (!field.IsStatic && field.Name == name)
                    return obj.GetFieldValue(cls, field.Token, out var fieldValue) >= 0 ? fieldValue : null;
        return null;
    }

    /// <summary>The metadata name of an object's runtime class ("System.Collections.Generic.List`1"), or null.</summary>
    public static string? ClassName(ICorDebugValue value) => TypeNames.ClassName(value);

    public static bool IsEnum(TypeRef type) =>
        ModuleMetadata.Open(type.Module.Path).GetBaseType(type.Token)?.ExternalTypeName == "System.Enum";

    public static EnumValue EnumFromNumber(TypeRef type, long number) =>
        EvalValues.MakeEnum(type.FullName, number, ModuleMetadata.Open(type.Module.Path).GetEnumMembers(type.Token));

    public static EnumValue EnumLike(EnumValue like, long number) => EvalValues.MakeEnum(like.TypeName, number);
}
