// Lambdas outside LINQ. The adapter runs a lambda itself wherever it knows what the callee
// would do with it: invoked directly (`((Func<int, int>)(x => x * 2))(21)`), and the
// predicate and converter methods of List<T> and Array (Find, FindAll, Exists, TrueForAll,
// FindIndex, ConvertAll, ForEach), run as their LINQ twins. A lambda passed to any other
// debuggee method would need a delegate made in the debuggee, which it cannot make: that is
// refused by name, never run in some other way.
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using ModuleMetadata = PyInspect.Debugger.Symbols.ModuleMetadata;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;
using PyInspect.Debugger.Evaluation.Linq;

namespace PyInspect.Debugger.Evaluation.Calls;

public static class DelegateCalls
{
    /// <summary>The lambda an invoked expression is, through parentheses and a delegate cast; null if it is none.</summary>
    public static LambdaExpressionSyntax? LambdaOf(ExpressionSyntax expression) => expression switch
    {
        ParenthesizedExpressionSyntax p => LambdaOf(p.Expression),
        CastExpressionSyntax c => LambdaOf(c.Expression),
        LambdaExpressionSyntax lambda => lambda,
        _ => null,
    };

    /// <summary>`((Func&lt;int, int&gt;)(x => x * 2))(21)`: parameters bound to the arguments (converted to the
    /// delegate's parameter types where the cast names them), the body evaluated, the result converted likewise.</summary>
    public static object? InvokeLambda(Interpreter interpreter, InvocationExpressionSyntax invocation, LambdaExpressionSyntax lambda, string text)
    {
        string[] parameters = CompiledLambda.Parameters(lambda);
        var arguments = invocation.ArgumentList.Arguments;
        if (arguments.Count != parameters.Length)
            throw new EvalException($"cannot evaluate '{text}': the lambda takes {parameters.Length} argument(s), {arguments.Count} given");
        if (lambda.ExpressionBody is not { } body)
            throw new EvalException($"cannot evaluate '{text}': only lambdas whose body is an expression can run here");
        IReadOnlyList<TypeSyntax> types = DelegateTypes(invocation.Expression);
        var scope = new Dictionary<string, object?>(StringComparer.Ordinal);
        for (int i = 0; i < parameters.Length; i++)
            scope[parameters[i]] = ConvertTo(i < types.Count ? types[i] : null, interpreter.Stable(interpreter.Eval(arguments[i].Expression)), text);
        object? result = interpreter.Context.WithScope(scope, () => interpreter.Eval(body));
        return types.Count == parameters.Length + 1 ? ConvertTo(types[^1], result, text) : result;
    }

    /// <summary>The type arguments of the `Func&lt;...&gt;` the lambda is cast to (none for Action or no cast).</summary>
    private static IReadOnlyList<TypeSyntax> DelegateTypes(ExpressionSyntax expression) => expression switch
    {
        ParenthesizedExpressionSyntax p => DelegateTypes(p.Expression),
        CastExpressionSyntax { Type: GenericNameSyntax { Identifier.ValueText: "Func" } func } => [.. func.TypeArgumentList.Arguments],
        CastExpressionSyntax { Type: QualifiedNameSyntax { Right: GenericNameSyntax { Identifier.ValueText: "Func" } func } } => [.. func.TypeArgumentList.Arguments],
        _ => [],
    };

    private static object? ConvertTo(TypeSyntax? type, object? value, string text) =>
        type is not null && Operators.PrimitiveType(Interpreter.TypeNameOf(type)) is { } primitive && EvalValues.Local(value) is var local
            && local is not null and not RemoteValue && local.GetType() != primitive
            ? Operators.Convert(local, primitive, text) : value;

    /// <summary>`f(3)`, `Dog.Doubler(4)`, `order.OnChange(x)`: a local, field or property holding a delegate,
    /// invoked by its Invoke method in the debuggee (a func-eval, refused where calls are). Methods of that name win.</summary>
    public static bool TryInvokeHeld(Interpreter interpreter, object? receiver, bool hasReceiver, string name, List<object?> values,
        string text, out object? result)
    {
        result = null;
        object? held = null;
        EvalContext context = interpreter.Context;
        bool found = receiver switch
        {
            TypeRef type => ModuleMetadata.TryOpen(type.Module.Path)?.Methods(type.Token, name).Any() != true
                && Members.TryStatic(interpreter, type, name, out held),
            RemoteValue remote when hasReceiver => EvalValues.Local(remote) is RemoteValue && !Invocation.HasMethod(remote, name)
                && Members.TryInstance(interpreter, remote, name, out held),
            null when !hasReceiver => context.TryLambdaVariable(name, out held)
                || (context.Variable(name) is { Kind: not "this", Value: { } local } && (held = new RemoteValue(local)) is not null)
                || ImplicitMember(interpreter, name, out held),
            _ => false,
        };
        if (found && EvalValues.IsNull(held))
            throw new EvalException($"cannot evaluate '{text}': '{name}' is null, so there is no delegate to invoke (NullReferenceException)");
        if (!found || held is not RemoteValue target || !Types.TypeChain(target.Value).Contains("System.MulticastDelegate")) return false;
        result = Invocation.CallMethod(interpreter, target, "Invoke", values, text);
        return true;
    }

    /// <summary>A field or property of `this` or of the frame's class named like the call, where no method is.</summary>
    private static bool ImplicitMember(Interpreter interpreter, string name, out object? held)
    {
        held = null;
        EvalContext context = interpreter.Context;
        if (interpreter.This() is { } self && new RemoteValue(self) is var me)
            return !Invocation.HasMethod(me, name) && Members.TryInstance(interpreter, me, name, out held);
        return Types.EnclosingType(context) is { } type && ModuleMetadata.TryOpen(type.Module.Path)?.Methods(type.Token, name).Any() != true
            && Members.TryStatic(interpreter, type, name, out held);
    }

    /// <summary>Whether `Array.name(array, lambda)` is one the adapter runs as its LINQ twin (Array's static
    /// twins of List&lt;T&gt;'s predicate methods: `Array.Find(array, x => ...)`).</summary>
    public static bool IsArrayPredicate(object? receiver, string name, SeparatedSyntaxList<ArgumentSyntax> arguments) =>
        receiver is TypeRef { FullName: "System.Array" } && LinqOperators.ListPredicates.Contains(name) && arguments.Count == 2
        && arguments[1].Expression is LambdaExpressionSyntax;

    /// <summary>The refusal for a lambda passed to a method the adapter does not run itself.</summary>
    public static EvalException LambdaArgument(object? receiver, string name, string text)
    {
        string owner = receiver switch
        {
            TypeRef type => type.FullName,
            RemoteValue remote => Display.RuntimeTypeName(remote),
            _ => "this",
        };
        if (name == "RemoveAll" && receiver is RemoteValue list && Members.ClassName(list.Value) == "System.Collections.Generic.List`1")
            return new EvalException($"cannot evaluate '{text}': List.RemoveAll changes the list and needs a delegate made in the debuggee, "
                + "which the adapter cannot make; to see what it would remove, evaluate .Where(...) or .Count(...) with the same lambda");
        return new EvalException($"cannot evaluate '{text}': passing a lambda to {owner}.{name} needs a delegate made in the debuggee, "
            + "which the adapter cannot make; it runs lambdas itself in LINQ operators, in List and Array's "
            + "Find/FindAll/Exists/TrueForAll/FindIndex/ConvertAll/ForEach, and when invoked directly");
    }
}
