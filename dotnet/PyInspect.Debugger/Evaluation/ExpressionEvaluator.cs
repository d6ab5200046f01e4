// The evaluator's face to the session: evaluate text to a VariableView (debuggee values as
// the variables view shows them, computed ones formatted here). Breakpoint conditions and
// log points are HitExpression's and LogMessage's.
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;

namespace PyInspect.Debugger.Evaluation;

public static class ExpressionEvaluator
{
    /// <summary>Items of a computed sequence listed as children.</summary>
    private const int MaxListedItems = 1000;

    /// <summary>Evaluate; throws EvalException with a message for the client.</summary>
    public static VariableView Evaluate(string expression, EvalContext context, bool hex)
    {
        object? value = Interpreter.Answer(expression, context);
        VariableView view = Describe(expression, expression, value, hex);
        return context.OutValues.Count == 0 ? view : WithOutValues(view, context.OutValues, hex);
    }

    /// <summary>`int.TryParse("12", out var n)`: the result as it is, with each out value listed
    /// as a child by its name (the Immediate window's `n` afterwards), after any children of its own.</summary>
    private static VariableView WithOutValues(VariableView view, IReadOnlyList<KeyValuePair<string, object?>> outs, bool hex)
    {
        if (view.Children is not (null or ListChildren)) return view;  // an object's own members; out values stay usable by name
        var items = view.Children is ListChildren own ? own.Items.ToList() : [];
        var added = outs.Where(o => items.All(i => i.Name != o.Key)).Select(o => Describe(o.Key, o.Key, o.Value, hex)).ToList();
        items.AddRange(added);
        return view with { Children = new ListChildren(items), NamedCount = view.NamedCount + added.Count };
    }

    public static VariableView Describe(string name, string evaluateName, object? value, bool hex)
    {
        switch (value)
        {
            case RemoteValue remote:
                return VariableReader.Describe(name, evaluateName, remote.Value, hex);
            case SequenceValue sequence:
                var items = sequence.Items.Take(MaxListedItems)
                    .Select((item, i) => Describe($"[{i}]", $"({evaluateName})[{i}]", item, hex)).ToList();
                return new VariableView(name, Display.Format(sequence, hex), Display.LocalTypeName(sequence), evaluateName, null,
                    items.Count > 0 ? new ListChildren(items) : null, IndexedCount: items.Count);
            case GroupingValue group:
                var members = new List<VariableView> { Describe("Key", $"({evaluateName}).Key", group.Key, hex) };
                members.AddRange(group.Items.Items.Take(MaxListedItems).Select((item, i) => Describe($"[{i}]", $"({evaluateName}).ElementAt({i})", item, hex)));
                return new VariableView(name, Display.Format(group, hex), Display.LocalTypeName(group), evaluateName, null,
                    new ListChildren(members), NamedCount: 1, IndexedCount: members.Count - 1);
            case AnonymousValue anonymous:
                var fields = anonymous.Members.Select(m => Describe(m.Key, $"({evaluateName}).{m.Key}", m.Value, hex)).ToList();
                return new VariableView(name, Display.Format(anonymous, hex), Display.LocalTypeName(anonymous), evaluateName, null,
                    fields.Count > 0 ? new ListChildren(fields) : null, NamedCount: fields.Count);
            case MadeValue made:
                if (!made.ShowsFields || made.Fields.Count == 0) return new VariableView(name, made.Text, made.TypeName, evaluateName, null, null);
                return new VariableView(name, made.Text, made.TypeName, evaluateName, null,
                    new MadeChildren(new(() => [.. made.Fields.Select(f => Describe(f.Key, $"({evaluateName}).{f.Key}", f.Value, hex))])),
                    NamedCount: made.Fields.Count);
            case PairValue pair:
                var parts = new List<VariableView>
                {
                    Describe("Key", $"({evaluateName}).Key", pair.Key, hex),
                    Describe("Value", $"({evaluateName}).Value", pair.Value, hex),
                };
                return new VariableView(name, Display.Format(pair, hex), Display.LocalTypeName(pair), evaluateName, null,
                    new ListChildren(parts), NamedCount: 2);
            default:
                return new VariableView(name, Display.Format(value, hex), Display.LocalTypeName(value), evaluateName, null, null);
        }
    }
}
