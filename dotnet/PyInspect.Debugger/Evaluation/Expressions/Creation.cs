// `new T(args)` in an expression: the object is made in the debuggee by one of its
// constructors (func-eval), then an object initializer's members are assigned and a
// collection initializer's items added, as C# would. Generic types take their type
// arguments from the expression (`new List<int>()`).
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation.Calls;
using PyInspect.Debugger.Evaluation.Core;

namespace PyInspect.Debugger.Evaluation.Expressions;

public sealed partial class Interpreter
{
    private object? Create(ObjectCreationExpressionSyntax creation)
    {
        string text = creation.ToString();
        var arguments = (creation.ArgumentList?.Arguments ?? default).Select(a => Stable(EvalValues.Local(Eval(a.Expression)))).ToList();
        if (TypeNameOf(creation.Type) is "System.String" or "String" && creation.Initializer is null)
            return NewLocalString(arguments, text);
        var (type, _, typeArguments) = Types.Instantiate(creation.Type, context);
        var made = new RemoteValue(Invocation.Construct(this, type, typeArguments, arguments, text));
        foreach (ExpressionSyntax item in creation.Initializer?.Expressions ?? default)
        {
            switch (item)
            {
                case AssignmentExpressionSyntax { Left: IdentifierNameSyntax member } assignment:
                    OnObject(() => made, member.Identifier.ValueText, $"{creation.Type}.{member}").Write(Stable(Eval(assignment.Right)), false);
                    break;
                case AssignmentExpressionSyntax { Left: ImplicitElementAccessSyntax index } assignment:   // ["key"] = value
                    var key = index.ArgumentList.Arguments.Select(a => Stable(EvalValues.Local(Eval(a.Expression)))).ToList();
                    Invocation.CallMethod(this, made, "set_Item", [.. key, Stable(EvalValues.Local(Eval(assignment.Right)))], $"{creation.Type}{index} = ...");
                    break;
                case InitializerExpressionSyntax pair when pair.IsKind(SyntaxKind.ComplexElementInitializerExpression):   // { key, value }
                    Invocation.CallMethod(this, made, "Add", [.. pair.Expressions.Select(e => Stable(EvalValues.Local(Eval(e))))], $"{creation.Type}.Add{pair}");
                    break;
                case not AssignmentExpressionSyntax when creation.Initializer!.IsKind(SyntaxKind.CollectionInitializerExpression):
                    Invocation.CallMethod(this, made, "Add", [Stable(EvalValues.Local(Eval(item)))], $"{creation.Type}.Add({item})");
                    break;
                default:
                    throw Unsupported(item);
            }
        }
        return made;
    }

    /// <summary>`new string('a', 3)`, `new string(chars)`: strings are computed here (the runtime
    /// makes them only through its own allocators, which func-eval cannot call as constructors).</summary>
    private static string NewLocalString(List<object?> arguments, string text) => arguments switch
    {
        [char c, int count] when count >= 0 => new string(c, count),
        [SequenceValue chars] when chars.Items.All(i => i is char) => new string([.. chars.Items.Cast<char>()]),
        _ => throw new EvalException($"cannot evaluate '{text}': strings are made here from (char, count) or a char array"),
    };
}
