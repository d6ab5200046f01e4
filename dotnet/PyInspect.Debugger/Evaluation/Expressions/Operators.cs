// Operators on local values with C#'s own rules: the runtime binder (dynamic) applies the
// language's numeric promotions, string concatenation and conversions, so results match
// what the compiled program would compute. Enums compare and combine by their numbers.
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CSharp.RuntimeBinder;
using PyInspect.Debugger.Evaluation.Core;

namespace PyInspect.Debugger.Evaluation.Expressions;

public static class Operators
{
    public static object? Unary(SyntaxKind kind, object? operand, string text)
    {
        dynamic? d = Numeric(operand, text);
        try
        {
            return kind switch
            {
                SyntaxKind.UnaryMinusExpression => -d,
                SyntaxKind.UnaryPlusExpression => +d,
                SyntaxKind.LogicalNotExpression => !d,
                SyntaxKind.BitwiseNotExpression => ~d,
                _ => throw new EvalException($"cannot evaluate '{text}': unsupported operator ({kind})"),
            };
        }
        catch (RuntimeBinderException error)
        {
            throw new EvalException($"cannot evaluate '{text}': {error.Message}");
        }
    }

    public static object? Binary(SyntaxKind kind, object? left, object? right, string text)
    {
        if (FastBinary.Apply(kind, left, right) is { } fast) return fast;
        if (left is EnumValue || right is EnumValue) return EnumBinary(kind, left, right, text);
        if (kind == SyntaxKind.AddExpression && (left is string || right is string))
            return Display.Concat(left) + Display.Concat(right);
        if (kind is SyntaxKind.EqualsExpression) return Equal(left, right);
        if (kind is SyntaxKind.NotEqualsExpression) return !Equal(left, right);
        dynamic? l = Numeric(left, text), r = Numeric(right, text);
        try
        {
            return kind switch
            {
                SyntaxKind.AddExpression => l + r,
                SyntaxKind.SubtractExpression => l - r,
                SyntaxKind.MultiplyExpression => l * r,
                SyntaxKind.DivideExpression => l / r,
                SyntaxKind.ModuloExpression => l % r,
                SyntaxKind.LeftShiftExpression => l << r,
                SyntaxKind.RightShiftExpression => l >> r,
                SyntaxKind.BitwiseAndExpression => l & r,
                SyntaxKind.BitwiseOrExpression => l | r,
                SyntaxKind.ExclusiveOrExpression => l ^ r,
                SyntaxKind.LessThanExpression => l < r,
                SyntaxKind.LessThanOrEqualExpression => l <= r,
                SyntaxKind.GreaterThanExpression => l > r,
                SyntaxKind.GreaterThanOrEqualExpression => l >= r,
                _ => throw new EvalException($"cannot evaluate '{text}': unsupported operator ({kind})"),
            };
        }
        catch (RuntimeBinderException error)
        {
            throw new EvalException($"cannot evaluate '{text}': {error.Message}");
        }
        catch (DivideByZeroException)
        {
            throw new EvalException($"cannot evaluate '{text}': division by zero (DivideByZeroException)");
        }
    }

    private static object? Numeric(object? value, string text) => value switch
    {
        RemoteValue or TypeRef or NamespaceRef or SequenceValue or PairValue or IComputedValue =>
            throw new EvalException($"cannot evaluate '{text}': operands must be numbers, bools, chars or strings, not {Display.RuntimeTypeName(value)}"),
        EnumValue e => e.Number,
        _ => value,
    };

    /// <summary>== on local values: C# value equality for primitives and strings.</summary>
    public static bool Equal(object? left, object? right)
    {
        if (left is null || right is null) return EvalValues.IsNull(left) && EvalValues.IsNull(right);
        if (left is EnumValue a && right is EnumValue b) return a.TypeName == b.TypeName && a.Number == b.Number;
        if (left is EnumValue || right is EnumValue) return false;
        if (left is RemoteValue || right is RemoteValue) return ReferenceEquality(left, right) ?? false;
        if (left is TypeOfValue ta && right is TypeOfValue tb) return ta.FullName == tb.FullName;
        try { return (bool)((dynamic)left == (dynamic)right); }
        catch (RuntimeBinderException) { return Equals(left, right); }
    }

    /// <summary>Reference equality for two debuggee objects (same address), null if either side is not one.</summary>
    public static bool? ReferenceEquality(object? left, object? right)
    {
        if (left is not RemoteValue && right is not RemoteValue) return null;
        if (EvalValues.Local(left) is not RemoteValue && EvalValues.Local(right) is not RemoteValue) return null;
        if (EvalValues.IsNull(left) || EvalValues.IsNull(right)) return EvalValues.IsNull(left) && EvalValues.IsNull(right);
        if (left is RemoteValue l && right is RemoteValue r && Address(l) is { } la && Address(r) is { } ra) return la == ra;
        return false;
    }

    private static ulong? Address(RemoteValue value) =>
        value.Value is Engine.ICorDebugReferenceValue reference && reference.GetValue(out ulong address) >= 0 ? address : null;

    private static object EnumBinary(SyntaxKind kind, object? left, object? right, string text)
    {
        var e = (left as EnumValue ?? right as EnumValue)!;
        long l = left is EnumValue le ? le.Number : System.Convert.ToInt64(left);
        long r = right is EnumValue re ? re.Number : System.Convert.ToInt64(right);
        return kind switch
        {
            SyntaxKind.EqualsExpression => Equal(left, right),
            SyntaxKind.NotEqualsExpression => !Equal(left, right),
            SyntaxKind.LessThanExpression => l < r,
            SyntaxKind.LessThanOrEqualExpression => l <= r,
            SyntaxKind.GreaterThanExpression => l > r,
            SyntaxKind.GreaterThanOrEqualExpression => l >= r,
            SyntaxKind.BitwiseAndExpression => Members.EnumLike(e, l & r),
            SyntaxKind.BitwiseOrExpression => Members.EnumLike(e, l | r),
            SyntaxKind.ExclusiveOrExpression => Members.EnumLike(e, l ^ r),
            _ => throw new EvalException($"cannot evaluate '{text}': unsupported operator on an enum ({kind})"),
        };
    }

    public static bool Truth(object? value, string text) => value switch
    {
        bool b => b,
        _ => throw new EvalException($"'{text}' is not a bool (it is {Display.RuntimeTypeName(value)})"),
    };

    public static Type? PrimitiveType(string name) => name switch
    {
        "System.Boolean" => typeof(bool), "System.Char" => typeof(char),
        "System.SByte" => typeof(sbyte), "System.Byte" => typeof(byte),
        "System.Int16" => typeof(short), "System.UInt16" => typeof(ushort),
        "System.Int32" => typeof(int), "System.UInt32" => typeof(uint),
        "System.Int64" => typeof(long), "System.UInt64" => typeof(ulong),
        "System.Single" => typeof(float), "System.Double" => typeof(double),
        "System.Decimal" => typeof(decimal), "System.IntPtr" or "nint" => typeof(nint), "System.UIntPtr" or "nuint" => typeof(nuint),
        _ => null,
    };

    /// <summary>An explicit numeric conversion, unchecked as C# compiles it by default.</summary>
    public static object? Convert(object? value, Type target, string text)
    {
        if (value is EnumValue e) value = e.Number;
        if (value is null) throw new EvalException($"cannot evaluate '{text}': null cannot be converted to {target.Name}");
        try
        {
            return Type.GetTypeCode(target) switch
            {
                TypeCode.Boolean => (bool)(dynamic)value,
                TypeCode.Char => (char)(dynamic)value,
                TypeCode.SByte => (sbyte)(dynamic)value, TypeCode.Byte => (byte)(dynamic)value,
                TypeCode.Int16 => (short)(dynamic)value, TypeCode.UInt16 => (ushort)(dynamic)value,
                TypeCode.Int32 => (int)(dynamic)value, TypeCode.UInt32 => (uint)(dynamic)value,
                TypeCode.Int64 => (long)(dynamic)value, TypeCode.UInt64 => (ulong)(dynamic)value,
                TypeCode.Single => (float)(dynamic)value, TypeCode.Double => (double)(dynamic)value,
                TypeCode.Decimal => (decimal)(dynamic)value,
                _ => target == typeof(nint) ? (nint)(dynamic)value : (nuint)(dynamic)value,
            };
        }
        catch (RuntimeBinderException error)
        {
            throw new EvalException($"cannot evaluate '{text}': {error.Message}");
        }
        catch (OverflowException error)
        {
            throw new EvalException($"cannot evaluate '{text}': {error.Message}");
        }
    }

    public static object? DefaultOf(string typeName) =>
        PrimitiveType(typeName) is { } type ? Activator.CreateInstance(type) : null;

    public static object? SizeOf(string typeName) =>
        PrimitiveType(typeName) is { } type && type != typeof(decimal)
            ? System.Runtime.InteropServices.Marshal.SizeOf(type == typeof(bool) ? typeof(byte) : type == typeof(char) ? typeof(ushort) : type)
            : typeName == "System.Decimal" ? 16 : null;
}
