// `f(x)` and `o.M(x)` in an expression: which way a call goes. LINQ operators and lambdas run
// here, out/ref arguments and base calls take their own path, every other method goes to
// Invocation (computed here, interpreted, or run in the debuggee by func-eval).
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using ModuleMetadata = PyInspect.Debugger.Symbols.ModuleMetadata;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Calls;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Linq;

namespace PyInspect.Debugger.Evaluation.Expressions;

public sealed partial class Interpreter
{
    private object? Invoke(InvocationExpressionSyntax invocation)
    {
        var arguments = invocation.ArgumentList.Arguments;
        if (DelegateCalls.LambdaOf(invocation.Expression) is { } invoked)
            return DelegateCalls.InvokeLambda(this, invocation, invoked, invocation.ToString());
        (object? receiver, string name, bool hasReceiver) = invocation.Expression switch
        {
            MemberAccessExpressionSyntax { Expression: BaseExpressionSyntax } access => (null, access.Name.Identifier.ValueText, true),
            MemberAccessExpressionSyntax access => (Eval(access.Expression), access.Name.Identifier.ValueText, true),
            MemberBindingExpressionSyntax binding => (Bound(), binding.Name.Identifier.ValueText, true),
            IdentifierNameSyntax identifier => (null, identifier.Identifier.ValueText, false),
            GenericNameSyntax generic => (null, generic.Identifier.ValueText, false),
            _ => throw Unsupported(invocation),
        };
        string text = invocation.ToString();
        if (!hasReceiver && name == "nameof" && arguments.Count == 1)
            return arguments[0].Expression is MemberAccessExpressionSyntax m ? m.Name.Identifier.ValueText : arguments[0].Expression.ToString();
        IReadOnlyList<TypeSyntax> typeArguments = invocation.Expression switch
        {
            MemberAccessExpressionSyntax { Name: GenericNameSyntax g } => [.. g.TypeArgumentList.Arguments],
            MemberBindingExpressionSyntax { Name: GenericNameSyntax g } => [.. g.TypeArgumentList.Arguments],
            _ => [],
        };
        if (hasReceiver && receiver is not TypeRef && LinqOperators.Handles(name, receiver, arguments))
            return LinqOperators.Apply(this, receiver, name, arguments, typeArguments, text);
        if (receiver is TypeRef { FullName: "System.Linq.Enumerable" } && arguments.Count > 0
            && Stable(Eval(arguments[0].Expression)) is var source && LinqOperators.Handles(name, source, SyntaxFactory.SeparatedList(arguments.Skip(1))))
            return LinqOperators.Apply(this, source, name, SyntaxFactory.SeparatedList(arguments.Skip(1)), typeArguments, text);
        if (DelegateCalls.IsArrayPredicate(receiver, name, arguments))
            return LinqOperators.Apply(this, Stable(Eval(arguments[0].Expression)), name, SyntaxFactory.SeparatedList(arguments.Skip(1)), typeArguments, text);
        if (OutArguments.Any(arguments)) return OutArguments.Invoke(this, receiver, hasReceiver, name, arguments, text);
        var values = arguments.Select(a => a.Expression is LambdaExpressionSyntax
            ? throw DelegateCalls.LambdaArgument(receiver, name, text)
            : EvalValues.Local(Eval(a.Expression))).ToList();
        if (DelegateCalls.TryInvokeHeld(this, receiver, hasReceiver, name, values, text, out object? invokedHeld)) return invokedHeld;
        if (!hasReceiver) return CallImplicit(name, values, text);
        if (invocation.Expression is MemberAccessExpressionSyntax { Expression: BaseExpressionSyntax }) return BaseAccess.Call(this, name, values, text);
        if (typeArguments.Count > 0 && receiver is TypeRef owner)  // Config.Echo<int>(5): type arguments as written
            return Invocation.CallStaticGeneric(this, owner, name, [.. typeArguments.Select(a => Types.Instantiate(a, context).Instance)], values, text);
        return receiver switch
        {
            TypeRef type => Invocation.CallStatic(this, type, name, values, text),
            RemoteValue remote when EvalValues.Local(remote) is RemoteValue => Invocation.CallMethod(this, remote, name, values, text),
            _ => Invocation.CallLocalOrExtension(this, EvalValues.Local(receiver), name, values, text),
        };
    }

    private object? CallImplicit(string name, List<object?> values, string text)
    {
        if (This() is { } self && Invocation.HasMethod(new RemoteValue(self), name, instanceOnly: true))
            return Invocation.CallMethod(this, new RemoteValue(self), name, values, text);
        if (Types.StaticScopes(context).FirstOrDefault(scope => Invocation.HasStaticMethod(scope, name, values.Count)) is { } owner)
            return Invocation.CallStatic(this, owner, name, values, text);
        if (Types.EnclosingType(context) is { } enclosing) return Invocation.CallStatic(this, enclosing, name, values, text);  // its refusal names the type
        throw new EvalException($"'{name}' is not a method of this type");
    }
}
