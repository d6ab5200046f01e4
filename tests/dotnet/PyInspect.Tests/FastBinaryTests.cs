// The fast path for binary operators answers exactly what C# does, or null for the general path.
using Microsoft.CodeAnalysis.CSharp;
using PyInspect.Debugger.Evaluation.Expressions;
using Xunit;

namespace PyInspect.Tests;

public sealed class FastBinaryTests
{
    [Fact]
    public void Ints_compare_and_compute_unchecked_as_csharp_does()
    {
        Assert.Equal(true, FastBinary.Apply(SyntaxKind.GreaterThanExpression, 3, 2));
        Assert.Equal(false, FastBinary.Apply(SyntaxKind.EqualsExpression, 3, 2));
        Assert.Equal(int.MinValue, FastBinary.Apply(SyntaxKind.AddExpression, int.MaxValue, 1));
        Assert.Equal(3, FastBinary.Apply(SyntaxKind.DivideExpression, 7, 2));
        Assert.Equal(1, FastBinary.Apply(SyntaxKind.ModuloExpression, 7, 2));
    }

    [Fact]
    public void Int_division_by_zero_or_minus_one_takes_the_general_path()
    {
        Assert.Null(FastBinary.Apply(SyntaxKind.DivideExpression, 7, 0));
        Assert.Null(FastBinary.Apply(SyntaxKind.ModuloExpression, int.MinValue, -1));
    }

    [Fact]
    public void Longs_have_no_fast_division()
    {
        Assert.Equal(5L, FastBinary.Apply(SyntaxKind.MultiplyExpression, 5L, 1L));
        Assert.Null(FastBinary.Apply(SyntaxKind.DivideExpression, 6L, 2L));
    }

    [Fact]
    public void Doubles_divide_by_ieee_rules_and_leave_equality_to_the_general_path()
    {
        Assert.Equal(double.PositiveInfinity, FastBinary.Apply(SyntaxKind.DivideExpression, 1.0, 0.0));
        Assert.Equal(true, FastBinary.Apply(SyntaxKind.LessThanExpression, 1.0, 2.0));
        Assert.Null(FastBinary.Apply(SyntaxKind.EqualsExpression, 1.0, 1.0));
    }

    [Fact]
    public void Decimals_only_compare_and_mixed_types_take_the_general_path()
    {
        Assert.Equal(true, FastBinary.Apply(SyntaxKind.EqualsExpression, 1.5m, 1.5m));
        Assert.Null(FastBinary.Apply(SyntaxKind.AddExpression, 1m, 2m));
        Assert.Null(FastBinary.Apply(SyntaxKind.AddExpression, 1, 2L));
        Assert.Null(FastBinary.Apply(SyntaxKind.AddExpression, "a", "b"));
    }
}
