// Part 1 evaluation: a name (local, argument, `this`, or a member of `this`) followed by
// member accesses and array indexers, e.g. `order.Customer.Name` or `grid[1, 2]`.
// Read straight from the stopped frame; nothing runs in the debuggee.
using System.Text.RegularExpressions;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Frames;

public static partial class FramePath
{
    [GeneratedRegex(@"\G\s*(?:\.\s*(?<member>@?[A-Za-z_][A-Za-z0-9_]*)|\[(?<index>[^\]]*)\])")]
    private static partial Regex Accessor();

    [GeneratedRegex(@"^\s*(?<root>@?[A-Za-z_][A-Za-z0-9_]*)")]
    private static partial Regex Root();

    public static ICorDebugValue Evaluate(string expression, FrameInfo frame)
    {
        Match root = Root().Match(expression);
        if (!root.Success) throw new ValuePathException($"cannot evaluate '{expression}': expected a name, a member path or an indexer");
        string rootName = root.Groups["root"].Value.TrimStart('@');
        ICorDebugValue value = ResolveRoot(rootName, frame);
        int position = root.Length;
        while (position < expression.Length)
        {
            Match step = Accessor().Match(expression, position);
            if (!step.Success || step.Length == 0)
            {
                if (expression[position..].Trim().Length == 0) break;
                throw new ValuePathException($"cannot evaluate '{expression}': unsupported syntax at '{expression[position..].Trim()}'");
            }
            value = step.Groups["member"].Success
                ? ValuePath.Member(value, step.Groups["member"].Value.TrimStart('@'))
                    ?? throw new ValuePathException($"'{step.Groups["member"].Value}' is not a field of '{expression[..position].Trim()}'")
                : ValuePath.Index(value, step.Groups["index"].Value, expression[..position].Trim());
            position += step.Length;
        }
        return value;
    }

    private static ICorDebugValue ResolveRoot(string name, FrameInfo frame)
    {
        var variables = FrameVariables.Raw(frame);
        if (variables.FirstOrDefault(v => v.Name == name) is { } found)
            return found.Value ?? throw new ValuePathException($"'{name}' is not available here (0x{found.ErrorCode:X8})");
        if (variables.FirstOrDefault(v => v.Kind == "this")?.Value is { } self && ValuePath.Member(self, name) is { } member)
            return member;
        throw new ValuePathException($"'{name}' is not a local, an argument or a field of this");
    }
}
