// A lambda compiled once per evaluation into a tree of closures, instead of walking its
// Roslyn syntax (and a scope dictionary) again for every element: parameters, literals,
// member reads (straight from memory where they are fields, FieldReadSite), operators,
// conditionals. Any other node is evaluated by the interpreter with the parameters in scope,
// so every expression the interpreter accepts still works inside a lambda.
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;

namespace PyInspect.Debugger.Evaluation.Linq;

public delegate object? LambdaNode(object? item, int index);

public sealed class CompiledLambda(Interpreter interpreter, string[] parameters)
{
    /// <summary>`x => body` or `(x, i) => body` as a delegate over (element, index).</summary>
    public static Func<object?, int, object?> Compile(Interpreter interpreter, LambdaExpressionSyntax lambda)
    {
        if (lambda.ExpressionBody is not { } body)
            throw new EvalException($"'{lambda}': only expression-bodied lambdas are supported");
        var compiler = new CompiledLambda(interpreter, Parameters(lambda));
        // A name a pattern or `out var` declares lives for the rest of the body: one scope for all of it.
        LambdaNode node = body.DescendantNodesAndSelf().Any(n => n is SingleVariableDesignationSyntax)
            ? compiler.Interpreted(body) : compiler.Node(body);
        return (item, index) => node(item, index);
    }

    /// <summary>A lambda's parameter names, in order.</summary>
    public static string[] Parameters(LambdaExpressionSyntax lambda) => lambda switch
    {
        SimpleLambdaExpressionSyntax simple => [simple.Parameter.Identifier.ValueText],
        ParenthesizedLambdaExpressionSyntax list => [.. list.ParameterList.Parameters.Select(p => p.Identifier.ValueText)],
        _ => [],
    };

    private LambdaNode Node(ExpressionSyntax syntax)
    {
        switch (syntax)
        {
            case ParenthesizedExpressionSyntax p:
                return Node(p.Expression);
            case LiteralExpressionSyntax or PredefinedTypeSyntax when Constant(syntax) is var constant:
                return (_, _) => constant;
            case IdentifierNameSyntax name when Array.IndexOf(parameters, name.Identifier.ValueText) is var at and >= 0 and <= 1:
                return at == 0 ? (item, _) => item : (_, index) => index;
            case MemberAccessExpressionSyntax { RawKind: (int)SyntaxKind.SimpleMemberAccessExpression } access
                when Parameterized(access.Expression):
                LambdaNode owner = Node(access.Expression);
                var site = new FieldReadSite(interpreter, access.Name.Identifier.ValueText, access.Expression.ToString());
                return (item, index) => site.Read(owner(item, index));
            case BinaryExpressionSyntax binary:
                return Binary(binary);
            case PrefixUnaryExpressionSyntax unary when unary.Kind() is SyntaxKind.LogicalNotExpression or SyntaxKind.UnaryMinusExpression:
                LambdaNode operand = Node(unary.Operand);
                SyntaxKind kind = unary.Kind();
                string text = unary.ToString();
                return (item, index) => Operators.Unary(kind, EvalValues.Local(operand(item, index)), text);
            case ConditionalExpressionSyntax conditional:
                LambdaNode test = Node(conditional.Condition), yes = Node(conditional.WhenTrue), no = Node(conditional.WhenFalse);
                string condition = conditional.Condition.ToString();
                return (item, index) => Operators.Truth(EvalValues.Local(test(item, index)), condition) ? yes(item, index) : no(item, index);
            default:
                return Interpreted(syntax);
        }
    }

    private object? Constant(ExpressionSyntax syntax) => interpreter.Eval(syntax);

    /// <summary>Whether the expression reads a parameter through fields only (o, o.Customer): member reads on it compile.</summary>
    private bool Parameterized(ExpressionSyntax syntax) => syntax switch
    {
        IdentifierNameSyntax name => Array.IndexOf(parameters, name.Identifier.ValueText) == 0,
        ParenthesizedExpressionSyntax p => Parameterized(p.Expression),
        MemberAccessExpressionSyntax { RawKind: (int)SyntaxKind.SimpleMemberAccessExpression } access => Parameterized(access.Expression),
        _ => false,
    };

    private LambdaNode Binary(BinaryExpressionSyntax binary)
    {
        SyntaxKind kind = binary.Kind();
        LambdaNode left = Node(binary.Left), right = Node(binary.Right);
        string leftText = binary.Left.ToString(), rightText = binary.Right.ToString(), text = binary.ToString();
        return kind switch
        {
            SyntaxKind.LogicalAndExpression => (item, index) =>
                Operators.Truth(EvalValues.Local(left(item, index)), leftText) && Operators.Truth(EvalValues.Local(right(item, index)), rightText),
            SyntaxKind.LogicalOrExpression => (item, index) =>
                Operators.Truth(EvalValues.Local(left(item, index)), leftText) || Operators.Truth(EvalValues.Local(right(item, index)), rightText),
            SyntaxKind.CoalesceExpression => (item, index) => left(item, index) is var value && EvalValues.IsNull(value) ? right(item, index) : value,
            SyntaxKind.IsExpression or SyntaxKind.AsExpression => Interpreted(binary),
            SyntaxKind.EqualsExpression or SyntaxKind.NotEqualsExpression => (item, index) =>
            {
                object? l = interpreter.Stable(left(item, index)), r = right(item, index);
                if (Operators.ReferenceEquality(l, r) is { } same) return kind == SyntaxKind.EqualsExpression ? same : !same;
                return Operators.Binary(kind, EvalValues.Local(l), EvalValues.Local(r), text);
            },
            _ => (item, index) =>
            {
                // The left value survives func-evals the right side may run (as the interpreter's Binary).
                object? l = EvalValues.Local(interpreter.Stable(left(item, index)));
                return Operators.Binary(kind, l, EvalValues.Local(right(item, index)), text);
            },
        };
    }

    /// <summary>A node the interpreter evaluates, with the lambda's parameters in scope.</summary>
    private LambdaNode Interpreted(ExpressionSyntax syntax) => (item, index) =>
    {
        var scope = new Dictionary<string, object?>(StringComparer.Ordinal);
        if (parameters.Length > 0) scope[parameters[0]] = item;
        if (parameters.Length > 1) scope[parameters[1]] = index;
        return interpreter.Context.WithScope(scope, () => interpreter.Eval(syntax));
    };
}
