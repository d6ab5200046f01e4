// Part 1 evaluation: a name (local, argument, `this`, or a member of `this`) followed by
// member accesses and array indexers, e.g. `order.Customer.Name` or `grid[1, 2]`.
// Read straight from the stopped frame; nothing runs in the debuggee.
using System.Globalization;
using System.Text.RegularExpressions;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public static partial class PathEvaluator
{
    [GeneratedRegex(@"\G\s*(?:\.\s*(?<member>@?[A-Za-z_][A-Za-z0-9_]*)|\[(?<index>[^\]]*)\])")]
    private static partial Regex Accessor();

    [GeneratedRegex(@"^\s*(?<root>@?[A-Za-z_][A-Za-z0-9_]*)")]
    private static partial Regex Root();

    public static unsafe ICorDebugValue Evaluate(string expression, FrameInfo frame)
    {
        Match root = Root().Match(expression);
        if (!root.Success) throw new DapException($"cannot evaluate '{expression}': expected a name, a member path or an indexer");
        string rootName = root.Groups["root"].Value.TrimStart('@');
        ICorDebugValue value = ResolveRoot(rootName, frame);
        int position = root.Length;
        while (position < expression.Length)
        {
            Match step = Accessor().Match(expression, position);
            if (!step.Success || step.Length == 0)
            {
                if (expression[position..].Trim().Length == 0) break;
                throw new DapException($"cannot evaluate '{expression}': unsupported syntax at '{expression[position..].Trim()}'");
            }
            value = step.Groups["member"].Success
                ? Member(value, step.Groups["member"].Value.TrimStart('@'))
                    ?? throw new DapException($"'{step.Groups["member"].Value}' is not a field of '{expression[..position].Trim()}'")
                : Index(value, step.Groups["index"].Value, expression[..position].Trim());
            position += step.Length;
        }
        return value;
    }

    private static ICorDebugValue ResolveRoot(string name, FrameInfo frame)
    {
        var variables = FrameVariables.Raw(frame);
        if (variables.FirstOrDefault(v => v.Name == name) is { } found)
            return found.Value ?? throw new DapException($"'{name}' is not available here (0x{found.ErrorCode:X8})");
        if (variables.FirstOrDefault(v => v.Kind == "this")?.Value is { } self && Member(self, name) is { } member)
            return member;
        throw new DapException($"'{name}' is not a local, an argument or a field of this");
    }

    /// <summary>An instance field (by C# name or auto-property name) of an object or struct; null if none.</summary>
    public static ICorDebugValue? Member(ICorDebugValue value, string name)
    {
        ICorDebugValue target = Dereference(value) ?? throw new DapException($"cannot read '{name}' of null");
        if (target is not ICorDebugObjectValue obj || target is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0)
            return null;
        foreach (var (cls, field) in VariableReader.InstanceFields(type))
            if ((field.DisplayName == name || field.Name == name) && obj.GetFieldValue(cls, field.Token, out var fieldValue) >= 0)
                return fieldValue;
        return null;
    }

    private static unsafe ICorDebugValue Index(ICorDebugValue value, string indexText, string owner)
    {
        ICorDebugValue target = Dereference(value) ?? throw new DapException($"cannot index null '{owner}'");
        if (target is not ICorDebugArrayValue array)
            throw new DapException($"'{owner}' is not an array (indexers on other types need part 2's evaluator)");
        uint[] dims = VariableReader.ArrayDimensions(array);
        string[] parts = indexText.Split(',');
        if (parts.Length != dims.Length) throw new DapException($"'{owner}' has rank {dims.Length}, got {parts.Length} indices");
        var indices = new uint[dims.Length];
        for (int d = 0; d < dims.Length; d++)
        {
            if (!long.TryParse(parts[d].Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out long i))
                throw new DapException($"index '{parts[d].Trim()}' is not an integer literal");
            if (i < 0 || i >= dims[d]) throw new DapException($"index {i} is out of range for '{owner}' (length {dims[d]})");
            indices[d] = (uint)i;
        }
        ICorDebugValue element;
        fixed (uint* p = indices)
            EngineException.ThrowIfFailed(array.GetElement((uint)indices.Length, p, out element), "ICorDebugArrayValue.GetElement");
        return element;
    }

    /// <summary>Follow references and boxes to the object itself; null for a null reference.</summary>
    public static ICorDebugValue? Dereference(ICorDebugValue value)
    {
        for (int hops = 0; hops < 4; hops++)
        {
            if (value is ICorDebugReferenceValue reference)
            {
                reference.IsNull(out int isNull);
                if (isNull != 0) return null;
                if (reference.Dereference(out var referent) < 0) return null;
                value = referent;
            }
            else if (value is ICorDebugBoxValue box && box.GetObject(out var boxed) >= 0)
                value = boxed;
            else
                return value;
        }
        return value;
    }
}
