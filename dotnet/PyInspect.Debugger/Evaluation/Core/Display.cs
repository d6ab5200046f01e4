// Values computed in the adapter, shown as the variables view shows debuggee values
// ("text" quoted, 'c', 42, 3.5, true, enum member names), named by their C# type, and as C#
// would turn them into text inside string concatenation (Invocation.AsText adds ToString()).
using System.Globalization;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Evaluation.Core;

public static class Display
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>C#'s alias for a local value's type ("int", "string", ...).</summary>
    public static string LocalTypeName(object? value) => value switch
    {
        null => "object",
        NullOf typed => typed.TypeName,
        MadeValue made => made.TypeName,
        bool => "bool", char => "char", sbyte => "sbyte", byte => "byte", short => "short", ushort => "ushort",
        int => "int", uint => "uint", long => "long", ulong => "ulong", float => "float", double => "double",
        decimal => "decimal", string => "string", nint => "nint", nuint => "nuint",
        EnumValue e => e.TypeName,
        TypeOfValue => "System.RuntimeType",
        SequenceValue s => $"System.Collections.Generic.IEnumerable<{s.ElementType}>",
        GroupingValue g => $"System.Linq.IGrouping<{Display.RuntimeTypeName(EvalValues.Local(g.Key))}, {g.Items.ElementType}>",
        AnonymousValue => "anonymous type",
        PairValue => "System.Collections.Generic.KeyValuePair",
        _ => value.GetType().Name,
    };

    /// <summary>The debugger's text for a local value; hex applies to integers.</summary>
    public static string Format(object? value, bool hex) => value switch
    {
        null or NullOf => "null",
        MadeValue made => made.Text,
        bool b => b ? "true" : "false",
        char c => ValueText.CharLiteral(c),
        string s => ValueText.StringLiteral(s),
        sbyte or short or int or long or nint => hex ? $"0x{Convert.ToInt64(value, Invariant):X}" : Convert.ToString(value, Invariant)!,
        byte or ushort or uint or ulong or nuint => hex ? $"0x{Convert.ToUInt64(value, Invariant):X}" : Convert.ToString(value, Invariant)!,
        float f => f.ToString(Invariant),
        double d => d.ToString(Invariant),
        decimal m => m.ToString(Invariant),
        EnumValue e => e.Text,
        TypeOfValue t => $"{{{t.FullName}}}",
        SequenceValue s => $"Count = {s.Items.Count}",
        GroupingValue g => $"{{Key = {Format(EvalValues.Local(g.Key), hex)}, Count = {g.Items.Items.Count}}}",
        AnonymousValue a => $"{{ {string.Join(", ", a.Members.Select(m => $"{m.Key} = {Format(EvalValues.Local(m.Value), hex)}"))} }}",
        PairValue p => $"{{[{Concat(EvalValues.Local(p.Key))}, {Concat(EvalValues.Local(p.Value))}]}}",
        _ => $"{{{RuntimeTypeName(value)}}}",
    };

    /// <summary>The text C# concatenation gives a local value (null is empty, bool is "True").</summary>
    public static string Concat(object? value) => value switch
    {
        null or NullOf => "",
        string s => s,
        IFormattable f => f.ToString(null, Invariant),
        EnumValue e => e.Text,
        RemoteValue remote => VariableReader.Describe("", "", remote.Value).Value,
        _ => value.ToString() ?? "",
    };

    /// <summary>The C# name of a value's type, for messages and results.</summary>
    public static string RuntimeTypeName(object? value) => value switch
    {
        null => "null",
        RemoteValue remote => ValuePath.Dereference(remote.Value) is ICorDebugValue2 typed && typed.GetExactType(out var type) >= 0
            ? TypeNames.Format(type) : "object",
        EnumValue e => e.TypeName,
        TypeRef t => $"the type {t.FullName}",
        NamespaceRef n => $"the namespace {n.Name}",
        TypeOfValue => "System.Type",
        SequenceValue s => $"IEnumerable<{s.ElementType}>",
        GroupingValue or AnonymousValue => LocalTypeName(value),
        PairValue => "KeyValuePair",
        _ => LocalTypeName(value),
    };
}
