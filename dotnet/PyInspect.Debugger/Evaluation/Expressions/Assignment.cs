// Assignments typed into evaluate, as in a debugger's console: `x = 5`, `order.Total += 1`,
// `names[0] = "a"`, `count++`. Locals, arguments, fields (also static) and array elements
// are written in place; properties and indexers of other types through their setters
// (func-eval). The new value is computed first and the storage located afterwards, since
// making a string in the debuggee neuters values read before it.
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Calls;
using PyInspect.Debugger.Evaluation.Core;

namespace PyInspect.Debugger.Evaluation.Expressions;

public sealed partial class Interpreter
{
    /// <summary>Where an assignment writes: read it, write it (a setter call where there is no storage).</summary>
    private sealed record Target(string Text, Func<object?> Read, Action<object?, bool> Write);

    private object? Assignment(AssignmentExpressionSyntax assignment)
    {
        RefuseIfReadOnly(assignment.ToString());
        Target target = Locate(assignment.Left);
        SyntaxKind kind = assignment.Kind();
        if (kind == SyntaxKind.CoalesceAssignmentExpression)
        {
            if (target.Read() is var current && !EvalValues.IsNull(current)) return current;
            kind = SyntaxKind.SimpleAssignmentExpression;
        }
        object? value = kind == SyntaxKind.SimpleAssignmentExpression
            ? Eval(assignment.Right)
            : Compound(kind) is { } op
                ? Operators.Binary(op, EvalValues.Local(Stable(target.Read())), EvalValues.Local(Eval(assignment.Right)), assignment.ToString())
                : throw Unsupported(assignment);
        target.Write(Stable(value), kind != SyntaxKind.SimpleAssignmentExpression);
        return target.Read();
    }

    /// <summary>`++x`, `x--`: the variable changes by one; the expression is its new or old value.</summary>
    private object? Increment(ExpressionSyntax operand, bool up, bool prefix, string text)
    {
        RefuseIfReadOnly(text);
        Target target = Locate(operand);
        object? before = EvalValues.Local(Stable(target.Read()));
        object? after = before is EnumValue e
            ? Members.EnumLike(e, e.Number + (up ? 1 : -1))
            : Operators.Binary(up ? SyntaxKind.AddExpression : SyntaxKind.SubtractExpression, before, 1, text);
        target.Write(after, true);
        return prefix ? target.Read() : before;
    }

    private void RefuseIfReadOnly(string text)
    {
        if (!context.AllowAssignments)
            throw new EvalException($"cannot evaluate '{text}' here: it assigns, and this evaluation may not change the program (hover or read-only)");
    }

    private static SyntaxKind? Compound(SyntaxKind kind) => kind switch
    {
        SyntaxKind.AddAssignmentExpression => SyntaxKind.AddExpression,
        SyntaxKind.SubtractAssignmentExpression => SyntaxKind.SubtractExpression,
        SyntaxKind.MultiplyAssignmentExpression => SyntaxKind.MultiplyExpression,
        SyntaxKind.DivideAssignmentExpression => SyntaxKind.DivideExpression,
        SyntaxKind.ModuloAssignmentExpression => SyntaxKind.ModuloExpression,
        SyntaxKind.AndAssignmentExpression => SyntaxKind.BitwiseAndExpression,
        SyntaxKind.OrAssignmentExpression => SyntaxKind.BitwiseOrExpression,
        SyntaxKind.ExclusiveOrAssignmentExpression => SyntaxKind.ExclusiveOrExpression,
        SyntaxKind.LeftShiftAssignmentExpression => SyntaxKind.LeftShiftExpression,
        SyntaxKind.RightShiftAssignmentExpression => SyntaxKind.RightShiftExpression,
        _ => null,
    };

    /// <summary>What the left side of an assignment names.</summary>
    private Target Locate(ExpressionSyntax syntax)
    {
        string text = syntax.ToString();
        switch (syntax)
        {
            case ParenthesizedExpressionSyntax parenthesized:
                return Locate(parenthesized.Expression);
            case IdentifierNameSyntax identifier:
            {
                string name = identifier.Identifier.ValueText;
                if (context.TryLambdaVariable(name, out _))
                    throw new EvalException($"cannot assign to '{name}': it is a lambda parameter or pattern variable of this expression");
                if (context.Variable(name) is { Kind: not "this" })
                    return Storage(text, () => context.Variable(name)?.Value ?? throw new EvalException($"'{name}' is not available here"));
                if (This() is not null)
                    return OnObject(() => new RemoteValue(This()!), name, text);
                if (Types.EnclosingType(context) is { } enclosing) return OnType(enclosing, name, text);
                throw new EvalException($"'{name}' is not a local, an argument or a field of this");
            }
            case MemberAccessExpressionSyntax access:
            {
                object? owner = Eval(access.Expression);
                string name = access.Name.Identifier.ValueText;
                if (owner is TypeRef type) return OnType(type, name, text);
                if (owner is not RemoteValue remote || EvalValues.IsNull(remote))
                    throw new EvalException($"cannot assign to '{text}': '{access.Expression}' is {(EvalValues.IsNull(owner) ? "null" : "not a debuggee object")}");
                if (remote.Value is ICorDebugReferenceValue)
                {
                    var held = new RemoteValue(context.Pin(remote.Value));
                    return OnObject(() => held, name, text);
                }
                // A struct: read it again for every access, so a write into it is seen (and
                // reads after a func-eval are not of a neutered copy).
                return OnObject(() => Eval(access.Expression) as RemoteValue ?? throw new EvalException($"'{access.Expression}' went away"), name, text);
            }
            case ElementAccessExpressionSyntax element:
                return Element(element, text);
            default:
                throw new EvalException($"cannot assign to '{text}': only variables, fields, properties and elements can be assigned");
        }
    }

    /// <summary>An instance field in place, else a property through its setter.</summary>
    private Target OnObject(Func<RemoteValue> owner, string name, string text)
    {
        if (ValuePath.Member(owner().Value, name) is not null)
            return Storage(text, () => ValuePath.Member(owner().Value, name) ?? throw new EvalException($"'{text}' went away"));
        if (!Invocation.HasMethod(owner(), "set_" + name))
            throw new EvalException(Invocation.HasMethod(owner(), "get_" + name)
                ? $"cannot assign to '{text}': the property has no setter"
                : $"'{name}' is not a field or property of {Display.RuntimeTypeName(owner())}");
        return new Target(text, () => Members.Instance(this, owner(), name, text),
            (value, _) => Invocation.CallMethod(this, owner(), "set_" + name, [value], text));
    }

    /// <summary>A static field in place, else a static property through its setter.</summary>
    private Target OnType(TypeRef type, string name, string text)
    {
        if (!Members.TryStatic(this, type, name, out object? current))
            throw new EvalException($"'{name}' is not a static member of '{type.FullName}'");
        if (current is RemoteValue && Members.IsStaticField(type, name))
            return Storage(text, () => Members.TryStatic(this, type, name, out object? now) && now is RemoteValue remote
                ? remote.Value : throw new EvalException($"'{text}' cannot be read"));
        if (current is not RemoteValue)
            throw new EvalException($"cannot assign to '{text}': it is a constant");
        return new Target(text, () => Members.TryStatic(this, type, name, out object? now) ? now : null,
            (value, _) => Invocation.CallStatic(this, type, "set_" + name, [value], text));
    }

    private Target Element(ElementAccessExpressionSyntax element, string text)
    {
        object? owner = Eval(element.Expression);
        if (owner is not RemoteValue remote || EvalValues.IsNull(remote))
            throw new EvalException($"cannot assign to '{text}': '{element.Expression}' is not a debuggee collection");
        var held = new RemoteValue(context.Pin(remote.Value));
        var indices = element.ArgumentList.Arguments.Select(a => Stable(EvalValues.Local(Eval(a.Expression)))).ToList();
        if (ValuePath.Dereference(held.Value) is ICorDebugArrayValue || Members.ClassName(held.Value) == "System.Collections.Generic.List`1")
            return Storage(text, () => Indexers.Read(this, held, indices, element.Expression.ToString()) is RemoteValue slot
                ? slot.Value : throw new EvalException($"'{text}' cannot be read"));
        return new Target(text, () => Indexers.Read(this, held, indices, element.Expression.ToString()),
            (value, _) => Invocation.CallMethod(this, held, "set_Item", [.. indices, value], text));
    }

    /// <summary>A variable, field or element written in place; `locate` finds it again after any func-eval.</summary>
    private Target Storage(string text, Func<ICorDebugValue> locate) =>
        new(text, () => new RemoteValue(locate()), (value, compound) => ValueWriter.Write(context, locate, value, compound, text));
}
