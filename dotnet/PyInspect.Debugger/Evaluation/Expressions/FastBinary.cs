// Binary operators on two ints, longs, doubles or decimals of the same type, computed without
// `dynamic` (whose dispatch costs far more than the operation): the common case in lambdas
// run over every element of a collection. Anything else answers null and takes the general path.
// Each type takes only the operator groups that mean the same here as in C#: equality not on
// doubles (NaN), arithmetic not on decimals (overflow is the general path's to report), and
// division only where its edge cases are settled (int: not by 0 or -1; double: IEEE).
using System.Numerics;
using Microsoft.CodeAnalysis.CSharp;

namespace PyInspect.Debugger.Evaluation.Expressions;

public static class FastBinary
{
    public static object? Apply(SyntaxKind kind, object? left, object? right) => (left, right) switch
    {
        (int l, int r) => Ordering(kind, l, r) ?? Equality(kind, l, r) ?? Arithmetic(kind, l, r) ?? IntDivision(kind, l, r),
        (long l, long r) => Ordering(kind, l, r) ?? Equality(kind, l, r) ?? Arithmetic(kind, l, r),
        (double l, double r) => Ordering(kind, l, r) ?? Arithmetic(kind, l, r)
            ?? (kind == SyntaxKind.DivideExpression ? l / r : null),
        (decimal l, decimal r) => Ordering(kind, l, r) ?? Equality(kind, l, r),
        _ => null,
    };

    private static object? Ordering<T>(SyntaxKind kind, T l, T r) where T : IComparisonOperators<T, T, bool> => kind switch
    {
        SyntaxKind.GreaterThanExpression => l > r,
        SyntaxKind.LessThanExpression => l < r,
        SyntaxKind.GreaterThanOrEqualExpression => l >= r,
        SyntaxKind.LessThanOrEqualExpression => l <= r,
        _ => null,
    };

    private static object? Equality<T>(SyntaxKind kind, T l, T r) where T : IEqualityOperators<T, T, bool> => kind switch
    {
        SyntaxKind.EqualsExpression => l == r,
        SyntaxKind.NotEqualsExpression => l != r,
        _ => null,
    };

    /// <summary>Unchecked, as C# computes ints and longs by default.</summary>
    private static object? Arithmetic<T>(SyntaxKind kind, T l, T r) where T : INumberBase<T> => kind switch
    {
        SyntaxKind.AddExpression => unchecked(l + r),
        SyntaxKind.SubtractExpression => unchecked(l - r),
        SyntaxKind.MultiplyExpression => unchecked(l * r),
        _ => null,
    };

    private static object? IntDivision(SyntaxKind kind, int l, int r) => kind switch
    {
        SyntaxKind.ModuloExpression when r != 0 && r != -1 => l % r,
        SyntaxKind.DivideExpression when r != 0 && r != -1 => l / r,
        _ => null,
    };
}
