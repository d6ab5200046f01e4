// What an interpreted call answers the evaluator: numbers, strings and enums as the
// evaluator's own values; debuggee objects and structs as RemoteValues; a null with the type
// the method declares; a struct or object the interpreted code made as a MadeValue, shown as
// the variables view shows a debuggee value of its type (no address: it is not in the debuggee).
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.IL.Machine;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.Getters;

public static class IlResults
{
    /// <summary>An interpreter value of the declared type as an evaluator value.</summary>
    public static object? ToEvaluator(IlMachine machine, object? value, IlType type)
    {
        if (type is IlPrimitive { ElementType: CorElementType.Void }) return null;
        if (type is IlPrimitive { IsValueType: true }) return IlValue.ToClr(value, type);
        if (type is IlNamed { Kind: IlTypeKind.Enum } enumType) return Enum(enumType, value);
        return value switch
        {
            null => DeclaredNull(type),
            string or decimal => value,
            DebuggeeObject obj => new RemoteValue(obj.Reference),
            DebuggeeStruct s => new RemoteValue(s.Value),
            LocalBox { Type: IlPrimitive primitive } box => IlValue.ToClr(box.Value, primitive),
            LocalBox { Type: IlNamed { Kind: IlTypeKind.Enum } boxedEnum } box => Enum(boxedEnum, box.Value),
            LocalBox { Value: decimal d } => d,
            LocalBox { Value: DebuggeeStruct s } => new RemoteValue(s.Value),
            LocalBox { Value: LocalObject inner } => Made(machine, inner),
            LocalObject made => Made(machine, made),
            _ => throw new IlRefusal($"returns {IlValue.Describe(value)} made by the interpreter, which the debuggee does not hold"),
        };
    }

    /// <summary>func-eval's null answer carries the declared type; so does ours (instantiated: Box&lt;string&gt;.Value is a string).</summary>
    private static object? DeclaredNull(IlType type) => type switch
    {
        IlNamed { Kind: IlTypeKind.Struct } => throw new IlRefusal($"returns null for the struct {type.Key}"),
        IlPrimitive or IlNamed or IlArray => new NullOf(IlTypeNames.Format(type)),
        _ => null,
    };

    private static EnumValue Enum(IlNamed type, object? value) =>
        EvalValues.MakeEnum(IlResolver.DisplayName(type.Name), IlValue.AsLong(value), ModuleMetadata.Open(type.ModulePath).GetEnumMembers(type.Token));

    /// <summary>A struct or object the interpreted code made, shown under its type's C# name with its fields.</summary>
    private static object? Made(IlMachine machine, LocalObject made)
    {
        IlNamed type = made.Type;
        string typeName = IlTypeNames.Format(type);
        if (type.Name == "System.Nullable`1")
        {
            if (IlValue.AsLong(Field(machine, made, "hasValue")) == 0) return new NullOf(typeName);
            // Shown as func-eval shows a Nullable with a value: the value's text, typed T?.
            return ToEvaluator(machine, Field(machine, made, "value"), type.Arguments[0]) switch
            {
                MadeValue inner => new MadeValue(made, typeName, inner.Text, () => inner.Fields, inner.ShowsFields) { Unwrapped = inner },
                RemoteValue => throw new IlRefusal($"returns a {typeName} made by the interpreter around a debuggee struct"),
                var local => new MadeValue(made, typeName, Display.Format(local, false), () => [], showsFields: false) { Unwrapped = local },
            };
        }
        if (!type.IsValueType && CollectionItems.ShowsItems(type.Name))
            throw new IlRefusal($"returns a {typeName} made by the interpreter (shown by func-eval by its items)");
        IReadOnlyList<IlField> fields = InstanceFields(machine, type);
        string? known = IlKnownStructs.Text(typeName, made, fields);
        return new MadeValue(made, typeName, known ?? $"{{{typeName}}}", () => [.. fields.Select(f => new KeyValuePair<string, object?>(
            ModuleMetadata.FieldDisplayName(f.Name), FieldValue(machine, made, f)))], showsFields: known is null)
        {
            SequenceOf = type.IsValueType ? null : SequenceElement(machine, made),
        };
    }

    /// <summary>A made object that is a sequence (an iterator a getter returns): its element type's C# name
    /// (`object` for a non-generic IEnumerable), so LINQ in the expression enumerates it; null otherwise.</summary>
    private static string? SequenceElement(IlMachine machine, LocalObject made)
    {
        if (!machine.IsInstance(made, machine.Resolver.CoreLibType("System.Collections", "IEnumerable"))) return null;
        IlType? generic = machine.AllInterfaces(made.Type)
            .FirstOrDefault(i => i is IlNamed { Name: "System.Collections.Generic.IEnumerable`1", Arguments.Count: 1 });
        return generic is IlNamed { Arguments: [var element] } ? IlTypeNames.Format(element) : "object";
    }

    private static object? Field(IlMachine machine, LocalObject made, string name) =>
        made.Fields.TryGetValue(name, out object? value) ? value
            : machine.Default(machine.Resolver.InstanceFields(made.Type).First(f => f.Name == name).FieldType);

    /// <summary>A field of a made value for its children: read when the client expands it, so a
    /// field the evaluator cannot show says why instead of failing the whole answer.</summary>
    private static object? FieldValue(IlMachine machine, LocalObject made, IlField field)
    {
        try
        {
            object? value = made.Fields.TryGetValue(field.Name, out object? held) ? held : machine.Default(field.FieldType);
            return ToEvaluator(machine, value, field.FieldType);
        }
        catch (IlRefusal refusal)
        {
            string typeName = field.FieldType is IlGenericParameter ? field.FieldType.Key : IlTypeNames.Format(field.FieldType);
            return new MadeValue(refusal, typeName, $"<unavailable: {refusal.Reason}>", () => []);
        }
    }

    /// <summary>The instance fields of the type and its bases, derived first, as the variables view lists them.</summary>
    private static List<IlField> InstanceFields(IlMachine machine, IlNamed type)
    {
        var fields = new List<IlField>();
        IlNamed? level = type;
        for (int depth = 0; level is not null && depth < 32; depth++)
        {
            if (level.Name is "System.Object" or "System.ValueType" or "System.Enum") break;
            fields.AddRange(machine.Resolver.InstanceFields(level));
            level = machine.Resolver.BaseOf(level) as IlNamed;
        }
        return fields;
    }
}
