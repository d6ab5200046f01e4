// One step of navigation through a value of the stopped process: follow a reference, read a
// field, index an array. The bottom of every path the adapter reads (setExpression, the
// evaluator, async stepping); it runs no debuggee code and speaks no protocol: what cannot
// be read is a ValuePathException, turned into an answer by whoever handles the request.
using System.Globalization;
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Values;

public static class ValuePath
{
    /// <summary>An instance field (by C# name or auto-property name) of an object or struct; null if none.</summary>
    public static ICorDebugValue? Member(ICorDebugValue value, string name)
    {
        ICorDebugValue target = Dereference(value) ?? throw new ValuePathException($"cannot read '{name}' of null");
        if (target is not ICorDebugObjectValue obj || target is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0)
            return null;
        foreach (var (cls, field) in VariableReader.InstanceFields(type))
            if ((field.DisplayName == name || field.Name == name) && obj.GetFieldValue(cls, field.Token, out var fieldValue) >= 0)
                return fieldValue;
        return null;
    }

    /// <summary>An array's element at `indexText` ("3" or "1, 2", integer literals); `owner` names the array in errors.</summary>
    public static unsafe ICorDebugValue Index(ICorDebugValue value, string indexText, string owner)
    {
        ICorDebugValue target = Dereference(value) ?? throw new ValuePathException($"cannot index null '{owner}'");
        if (target is not ICorDebugArrayValue array)
            throw new ValuePathException($"'{owner}' is not an array (indexers on other types need part 2's evaluator)");
        uint[] dims = VariableReader.ArrayDimensions(array);
        string[] parts = indexText.Split(',');
        if (parts.Length != dims.Length) throw new ValuePathException($"'{owner}' has rank {dims.Length}, got {parts.Length} indices");
        var indices = new uint[dims.Length];
        for (int d = 0; d < dims.Length; d++)
        {
            if (!long.TryParse(parts[d].Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out long i))
                throw new ValuePathException($"index '{parts[d].Trim()}' is not an integer literal");
            if (i < 0 || i >= dims[d]) throw new ValuePathException($"index {i} is out of range for '{owner}' (length {dims[d]})");
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
