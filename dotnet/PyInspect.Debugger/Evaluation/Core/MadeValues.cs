// Values an interpreted getter answers that the debuggee does not hold: a struct or object
// the interpreted code made (it lives in the adapter, so it has no address), and a null
// that knows the type its method declares (func-eval's null answer carries that type).
namespace PyInspect.Debugger.Evaluation.Core;

/// <summary>An object or struct the interpreted code made. Shown as the variables view shows a debuggee
/// value of its type (`{Type}`, or a DateTime/TimeSpan/Guid by its value), its fields as its children;
/// `Held` is the interpreter's own value, handed back to it when the expression calls on it.</summary>
public sealed class MadeValue(object held, string typeName, string text, Func<IReadOnlyList<KeyValuePair<string, object?>>> fields,
    bool showsFields = true) : IComputedValue
{
    private readonly Lazy<IReadOnlyList<KeyValuePair<string, object?>>> _fields = new(fields);

    public object Held { get; } = held;
    public string TypeName { get; } = typeName;
    public string Text { get; } = text;

    /// <summary>Its instance fields (bases' included, derived first) by the name the variables view shows.</summary>
    public IReadOnlyList<KeyValuePair<string, object?>> Fields => _fields.Value;

    /// <summary>False for a value shown by its value alone (DateTime, TimeSpan, Guid): the variables view lists no children for those.</summary>
    public bool ShowsFields { get; } = showsFields;

    /// <summary>For a made sequence (an iterator a getter returned), its element type's C# name: LINQ enumerates
    /// it by interpreting its GetEnumerator/MoveNext/Current (IL/IlEnumeration.cs). Null for anything else.</summary>
    public string? SequenceOf { get; init; }

    /// <summary>A made Nullable&lt;T&gt; with a value: that value, which an expression computes with (`n + 1`, `n > 2`).</summary>
    public object? Unwrapped { get; init; }

    public override string ToString() => Text;
}

/// <summary>A null answered by an interpreted call, with the call's declared return type (instantiated):
/// only an evaluation's answer keeps it; inside an expression it is plain null (Interpreter.Eval).</summary>
public sealed record NullOf(string TypeName);
