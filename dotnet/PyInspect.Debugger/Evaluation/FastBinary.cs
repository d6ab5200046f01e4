// Binary operators on two ints, longs, doubles or decimals of the same type, computed without
// `dynamic` (whose dispatch costs far more than the operation): the common case in lambdas
// run over every element of a collection. Anything else answers null and takes the general path.
using Microsoft.CodeAnalysis.CSharp;

namespace PyInspect.Debugger.Evaluation;

public static class FastBinary
{
    public static object? Apply(SyntaxKind kind, object? left, object? right) => (left, right) switch
    {
        (int l, int r) => Int(kind, l, r),
        (long l, long r) => Long(kind, l, r),
        (double l, double r) => Double(kind, l, r),
        (decimal l, decimal r) => Decimal(kind, l, r),
        _ => null,
    };

    private static object? Int(SyntaxKind kind, int l, int r) => kind switch
    {
        SyntaxKind.GreaterThanExpression => l > r,
        SyntaxKind.LessThanExpression => l < r,
        SyntaxKind.GreaterThanOrEqualExpression => l >= r,
        SyntaxKind.LessThanOrEqualExpression => l <= r,
        SyntaxKind.EqualsExpression => l == r,
        SyntaxKind.NotEqualsExpression => l != r,
        SyntaxKind.AddExpression => unchecked(l + r),
        SyntaxKind.SubtractExpression => unchecked(l - r),
        SyntaxKind.MultiplyExpression => unchecked(l * r),
        SyntaxKind.ModuloExpression when r != 0 && r != -1 => l % r,
        SyntaxKind.DivideExpression when r != 0 && r != -1 => l / r,
        _ => null,
    };

    private static object? Long(SyntaxKind kind, long l, long r) => kind switch
    {
        SyntaxKind.GreaterThanExpression => l > r,
        SyntaxKind.LessThanExpression => l < r,
        SyntaxKind.GreaterThanOrEqualExpression => l >= r,
        SyntaxKind.LessThanOrEqualExpression => l <= r,
        SyntaxKind.EqualsExpression => l == r,
        SyntaxKind.NotEqualsExpression => l != r,
        SyntaxKind.AddExpression => unchecked(l + r),
        SyntaxKind.SubtractExpression => unchecked(l - r),
        SyntaxKind.MultiplyExpression => unchecked(l * r),
        _ => null,
    };

    private static object? Double(SyntaxKind kind, double l, double r) => kind switch
    {
        SyntaxKind.GreaterThanExpression => l > r,
        SyntaxKind.LessThanExpression => l < r,
        SyntaxKind.GreaterThanOrEqualExpression => l >= r,
        SyntaxKind.LessThanOrEqualExpression => l <= r,
        SyntaxKind.AddExpression => l + r,
        SyntaxKind.SubtractExpression => l - r,
        SyntaxKind.MultiplyExpression => l * r,
        SyntaxKind.DivideExpression => l / r,
        _ => null,
    };

    /// <summary>Comparisons only: decimal arithmetic can overflow, which the general path reports.</summary>
    private static object? Decimal(SyntaxKind kind, decimal l, decimal r) => kind switch
    {
        SyntaxKind.GreaterThanExpression => l > r,
        SyntaxKind.LessThanExpression => l < r,
        SyntaxKind.GreaterThanOrEqualExpression => l >= r,
        SyntaxKind.LessThanOrEqualExpression => l <= r,
        SyntaxKind.EqualsExpression => l == r,
        SyntaxKind.NotEqualsExpression => l != r,
        _ => null,
    };
}
