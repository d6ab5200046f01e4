// Indexers: arrays of any rank, strings, List and Dictionary read from their internals
// (no code runs in the debuggee), any other type's `this[...]` through its get_Item getter.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Calls;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Linq;

namespace PyInspect.Debugger.Evaluation.Expressions;

public static class Indexers
{
    public static object? Read(Interpreter interpreter, object? target, IReadOnlyList<object?> indices, string ownerText)
    {
        object? local = EvalValues.Local(target);
        switch (local)
        {
            case null:
                throw new EvalException($"cannot index null '{ownerText}' (NullReferenceException)");
            case string text:
                int at = Position(indices, 0, text.Length, ownerText);
                return text[at];
            case SequenceValue sequence:
                return sequence.Items[Position(indices, 0, sequence.Items.Count, ownerText)];
            case RemoteValue remote:
                return Remote(interpreter, remote, indices, ownerText);
            default:
                throw new EvalException($"'{ownerText}' cannot be indexed ({Display.RuntimeTypeName(local)})");
        }
    }

    private static int Position(IReadOnlyList<object?> indices, int dimension, long length, string ownerText)
    {
        if (indices.Count <= dimension) throw new EvalException($"'{ownerText}' needs {dimension + 1} indices");
        object? index = indices[dimension];
        if (index is not (int or long or short or byte or sbyte or ushort or uint or char))
            throw new EvalException($"index '{Invocation.AsText(index, null)}' of '{ownerText}' is not an integer");
        long i = Convert.ToInt64(index);
        if (i < 0 || i >= length) throw new EvalException($"index {i} is out of range for '{ownerText}' (length {length})");
        return (int)i;
    }

    private static unsafe object? Remote(Interpreter interpreter, RemoteValue remote, IReadOnlyList<object?> indices, string ownerText)
    {
        if (ValuePath.Dereference(remote.Value) is ICorDebugArrayValue array)
        {
            uint[] dims = VariableReader.ArrayDimensions(array);
            if (indices.Count != dims.Length) throw new EvalException($"'{ownerText}' has rank {dims.Length}, got {indices.Count} indices");
            var at = new uint[dims.Length];
            for (int d = 0; d < dims.Length; d++) at[d] = (uint)Position(indices, d, dims[d], ownerText);
            ICorDebugValue element;
            fixed (uint* p = at)
                if (array.GetElement((uint)at.Length, p, out element) < 0) throw new EvalException($"cannot read '{ownerText}' element");
            return new RemoteValue(element);
        }
        string? name = Members.ClassName(remote.Value);
        if (name == "System.Collections.Generic.List`1" && indices.Count == 1
            && Members.RawField(remote.Value, "_items") is { } itemsField && ValuePath.Dereference(itemsField) is ICorDebugArrayValue items
            && Members.RawField(remote.Value, "_size") is { } sizeField && EvalValues.FromDebuggee(sizeField) is int size)
        {
            int at = Position(indices, 0, size, ownerText);
            if (items.GetElementAtPosition((uint)at, out var element) < 0) throw new EvalException($"cannot read '{ownerText}[{at}]'");
            return new RemoteValue(element);
        }
        if (name == "System.Collections.Generic.Dictionary`2" && indices.Count == 1 && indices[0] is not RemoteValue)
        {
            foreach (PairValue pair in Sequences.Enumerate(interpreter, remote, ownerText).Cast<PairValue>())
                if (Operators.Equal(EvalValues.Local(pair.Key), indices[0])) return pair.Value;
            throw new EvalException($"the key {Invocation.AsText(indices[0], null)} is not in '{ownerText}' (KeyNotFoundException)");
        }
        return Invocation.CallIndexer(interpreter, remote, indices, ownerText);
    }
}
