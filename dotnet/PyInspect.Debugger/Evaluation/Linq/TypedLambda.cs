// A one-parameter lambda over numbers (`x => x > 49990`, `x => (long)x * 2`) compiled with
// System.Linq.Expressions into a real delegate over the element type, with C#'s numeric
// promotions. Null when the body uses anything else: the closure tree (CompiledLambda) runs it.
using System.Linq.Expressions;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Expr = System.Linq.Expressions.Expression;
using PyInspect.Debugger.Evaluation.Core;

namespace PyInspect.Debugger.Evaluation.Linq;

public static class TypedLambda
{
    /// <summary>Func&lt;T, R&gt; for elements of type T, or null when the body is not numbers and operators on x.</summary>
    public static LambdaExpression? TryBuild(LambdaExpressionSyntax lambda, Type element)
    {
        if (lambda is not SimpleLambdaExpressionSyntax { ExpressionBody: { } body } simple) return null;
        ParameterExpression x = Expr.Parameter(element, simple.Parameter.Identifier.ValueText);
        try
        {
            return Build(body, x) is { } built ? Expr.Lambda(built, x) : null;
        }
        catch (InvalidOperationException)
        {
            return null;  // an operator the types do not have: the general path explains it
        }
    }

    private static Expr? Build(ExpressionSyntax syntax, ParameterExpression x) => syntax switch
    {
        ParenthesizedExpressionSyntax p => Build(p.Expression, x),
        IdentifierNameSyntax name when name.Identifier.ValueText == x.Name => x,
        LiteralExpressionSyntax literal when literal.Token.Value is { } value && Rank(value.GetType()) > 0 || literal.Token.Value is bool =>
            Expr.Constant(literal.Token.Value),
        CastExpressionSyntax { Type: PredefinedTypeSyntax type } cast when EvalValues.KeywordType(type.Keyword.ValueText) is { } name
            && Type.GetType(name) is { } target && Rank(target) > 0 && Build(cast.Expression, x) is { } operand && Rank(operand.Type) > 0 =>
            Expr.Convert(operand, target),
        PrefixUnaryExpressionSyntax unary when Build(unary.Operand, x) is { } operand => unary.Kind() switch
        {
            SyntaxKind.LogicalNotExpression when operand.Type == typeof(bool) => Expr.Not(operand),
            SyntaxKind.UnaryMinusExpression when Rank(operand.Type) > 0 => Expr.Negate(Promote(operand, Wider(operand.Type, typeof(int)))),
            _ => null,
        },
        ConditionalExpressionSyntax c when Build(c.Condition, x) is { Type: var t } test && t == typeof(bool)
            && Build(c.WhenTrue, x) is { } yes && Build(c.WhenFalse, x) is { } no && Common(yes.Type, no.Type) is { } type =>
            Expr.Condition(test, Promote(yes, type), Promote(no, type)),
        BinaryExpressionSyntax binary when Build(binary.Left, x) is { } left && Build(binary.Right, x) is { } right => Binary(binary.Kind(), left, right),
        _ => null,
    };

    private static Expr? Binary(SyntaxKind kind, Expr left, Expr right)
    {
        if (kind is SyntaxKind.LogicalAndExpression or SyntaxKind.LogicalOrExpression)
            return left.Type == typeof(bool) && right.Type == typeof(bool)
                ? kind == SyntaxKind.LogicalAndExpression ? Expr.AndAlso(left, right) : Expr.OrElse(left, right) : null;
        if (left.Type == typeof(bool) || right.Type == typeof(bool))
            return left.Type == right.Type && kind is SyntaxKind.EqualsExpression or SyntaxKind.NotEqualsExpression
                ? kind == SyntaxKind.EqualsExpression ? Expr.Equal(left, right) : Expr.NotEqual(left, right) : null;
        if (Common(left.Type, right.Type) is not { } type) return null;
        Expr l = Promote(left, type), r = Promote(right, type);
        return kind switch
        {
            SyntaxKind.AddExpression => Expr.Add(l, r),
            SyntaxKind.SubtractExpression => Expr.Subtract(l, r),
            SyntaxKind.MultiplyExpression => Expr.Multiply(l, r),
            SyntaxKind.DivideExpression => Expr.Divide(l, r),
            SyntaxKind.ModuloExpression => Expr.Modulo(l, r),
            SyntaxKind.GreaterThanExpression => Expr.GreaterThan(l, r),
            SyntaxKind.GreaterThanOrEqualExpression => Expr.GreaterThanOrEqual(l, r),
            SyntaxKind.LessThanExpression => Expr.LessThan(l, r),
            SyntaxKind.LessThanOrEqualExpression => Expr.LessThanOrEqual(l, r),
            SyntaxKind.EqualsExpression => Expr.Equal(l, r),
            SyntaxKind.NotEqualsExpression => Expr.NotEqual(l, r),
            SyntaxKind.BitwiseAndExpression when Integral(type) => Expr.And(l, r),
            SyntaxKind.BitwiseOrExpression when Integral(type) => Expr.Or(l, r),
            SyntaxKind.ExclusiveOrExpression when Integral(type) => Expr.ExclusiveOr(l, r),
            _ => null,
        };
    }

    private static Expr Promote(Expr value, Type type) => value.Type == type ? value : Expr.Convert(value, type);

    private static bool Integral(Type type) => type == typeof(int) || type == typeof(uint) || type == typeof(long) || type == typeof(ulong);

    /// <summary>The type C# computes a binary operator in (int at least); null where C# has none (decimal with double).</summary>
    private static Type? Common(Type a, Type b)
    {
        if (Rank(a) == 0 || Rank(b) == 0) return null;
        if (a == typeof(decimal) || b == typeof(decimal))
            return a == typeof(double) || a == typeof(float) || b == typeof(double) || b == typeof(float) ? null : typeof(decimal);
        Type wide = Wider(Wider(a, b), typeof(int));
        bool signed = IsSigned(a) || IsSigned(b);
        if (wide == typeof(uint) && signed) return typeof(long);
        if (wide == typeof(ulong) && signed) return null;
        return wide;
    }

    private static bool IsSigned(Type type) => type == typeof(sbyte) || type == typeof(short) || type == typeof(int) || type == typeof(long);

    private static Type Wider(Type a, Type b) => Rank(a) >= Rank(b) ? a : b;

    /// <summary>Numeric types in C#'s implicit widening order (0: not a number here).</summary>
    private static int Rank(Type type) =>
        type == typeof(sbyte) || type == typeof(byte) || type == typeof(short) || type == typeof(ushort) || type == typeof(char) ? 1
        : type == typeof(int) ? 2 : type == typeof(uint) ? 3 : type == typeof(long) ? 4 : type == typeof(ulong) ? 5
        : type == typeof(float) ? 6 : type == typeof(double) ? 7 : type == typeof(decimal) ? 8 : 0;
}
