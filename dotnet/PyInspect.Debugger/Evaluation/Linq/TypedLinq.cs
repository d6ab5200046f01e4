// LINQ at memory speed over arrays and Lists of numbers: the elements read from the debuggee
// in one block into a typed array, the lambda compiled into a real delegate (TypedLambda),
// and the operator run over them here. Null (not handled) for anything else; the general
// path (Sequences + CompiledLambda) then runs it.
using System.Linq.Expressions;
using Microsoft.CodeAnalysis;
using System.Runtime.InteropServices;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;

namespace PyInspect.Debugger.Evaluation.Linq;

public static class TypedLinq
{
    private static readonly HashSet<string> Handled = new(StringComparer.Ordinal)
    {
        "Where", "Count", "LongCount", "Any", "All", "Sum", "Average", "Min", "Max", "Select",
    };

    public static object? TryApply(Interpreter interpreter, object? receiver, string name, SeparatedSyntaxList<ArgumentSyntax> arguments,
        string text, Func<IReadOnlyList<object?>, string, object?>? aggregate)
    {
        if (!Handled.Contains(name) || arguments is not [{ Expression: LambdaExpressionSyntax lambda }]) return null;
        if (EvalValues.Local(receiver) is not RemoteValue remote || Read(interpreter.Context, remote) is not { } items) return null;
        Type element = items.GetType().GetElementType()!;
        if (TypedLambda.TryBuild(lambda, element) is not { } built) return null;
        interpreter.Context.CountItems(text, items.Length);
        var run = typeof(TypedLinq).GetMethod(nameof(Run), System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)!
            .MakeGenericMethod(element, built.ReturnType);
        try
        {
            return run.Invoke(null, [items, built.Compile(), name, text, aggregate]);
        }
        catch (System.Reflection.TargetInvocationException thrown) when (thrown.InnerException is DivideByZeroException)
        {
            throw new EvalException($"cannot evaluate '{text}': division by zero (DivideByZeroException)");
        }
        catch (System.Reflection.TargetInvocationException thrown) when (thrown.InnerException is EvalException inner)
        {
            throw inner;
        }
    }

    private static object? Run<T, R>(T[] items, Func<T, R> lambda, string name, string text, Func<IReadOnlyList<object?>, string, object?> aggregate)
    {
        if (lambda is Func<T, bool> test)
        {
            switch (name)
            {
                case "Where": return new SequenceValue(new BoxedList<T>(Kept(items, test)), Display.LocalTypeName(default(T)));
                case "Count": return items.Count(test);
                case "LongCount": return items.LongCount(test);
                case "Any": return items.Any(test);
                case "All": return items.All(test);
            }
        }
        if (name is "Where" or "Count" or "LongCount" or "Any" or "All")
            throw new EvalException($"cannot evaluate '{text}': the lambda must answer a bool");
        var projected = new BoxedList<R>(Array.ConvertAll(items, x => lambda(x)));
        return name == "Select" ? new SequenceValue(projected, Display.LocalTypeName(default(R))) : aggregate(projected, name);
    }

    private static T[] Kept<T>(T[] items, Func<T, bool> test)
    {
        var kept = new T[items.Length];
        int count = 0;
        foreach (T item in items)
            if (test(item)) kept[count++] = item;
        Array.Resize(ref kept, count);
        return kept;
    }

    /// <summary>The elements of an array or List of a primitive type, read from memory in one go; null otherwise.</summary>
    private static Array? Read(EvalContext context, RemoteValue source)
    {
        if (context.ReadMemory is not { } read) return null;
        ICorDebugValue? arrayValue = source.Value;
        int? count = null;
        if (Members.ClassName(source.Value) == "System.Collections.Generic.List`1")
        {
            arrayValue = Members.RawField(source.Value, "_items");
            count = Members.RawField(source.Value, "_size") is { } sizeField && EvalValues.FromDebuggee(sizeField) is int n ? n : null;
            if (arrayValue is null || count is null) return null;
        }
        if (arrayValue is null || ValuePath.Dereference(arrayValue) is not ICorDebugArrayValue array || array.GetRank(out uint rank) < 0 || rank != 1
            || array.GetCount(out uint length) < 0 || array.GetElementType(out int elementType) < 0) return null;
        int total = count ?? (int)length;
        Array? items = Empty(elementType, total);
        if (items is null || total == 0) return items;
        if (array.GetElementAtPosition(0, out var first) < 0 || first.GetAddress(out ulong address) < 0 || address == 0) return null;
        int size = Buffer.ByteLength(items) / total;
        // 256 KB at a time: the debugger's memory reads slow down on very large requests.
        var chunk = new byte[Math.Min(262144, total * size)];
        for (int done = 0; done < total * size; done += chunk.Length)
        {
            int n = Math.Min(chunk.Length, total * size - done);
            byte[] part = n == chunk.Length ? chunk : new byte[n];
            if (read(address + (ulong)done, part) < n) return null;
            Buffer.BlockCopy(part, 0, items, done, n);
        }
        return items;
    }

    private static Array? Empty(int elementType, int length) => elementType switch
    {
        CorElementType.I4 => new int[length], CorElementType.I8 => new long[length], CorElementType.R8 => new double[length],
        CorElementType.R4 => new float[length], CorElementType.U4 => new uint[length], CorElementType.U8 => new ulong[length],
        CorElementType.I2 => new short[length], CorElementType.U2 => new ushort[length], CorElementType.U1 => new byte[length],
        CorElementType.I1 => new sbyte[length], CorElementType.Char => new char[length],
        _ => null,
    };
}

/// <summary>A typed array seen as a list of values, each boxed only when read.</summary>
public sealed class BoxedList<T>(T[] items) : IReadOnlyList<object?>
{
    public object? this[int index] => items[index];
    public int Count => items.Length;
    public IEnumerator<object?> GetEnumerator()
    {
        foreach (T item in items) yield return item;
    }
    System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
}
