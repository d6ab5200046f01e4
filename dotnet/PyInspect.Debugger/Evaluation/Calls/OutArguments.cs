// Calls with `out` and `ref` arguments, as the Immediate window takes them:
// `int.TryParse("12", out var n)` and `prices.TryGetValue("pear", out var p)` answer the
// call's own result, and each `out var name` holds its value for the rest of the expression
// (`prices.TryGetValue("pear", out var p) ? p : 0m`); the evaluator reports the values
// beside the result (ExpressionEvaluator lists them as the result's children).
// Methods of strings, numbers and System.Math run here by reflection; a debuggee method
// gets a home for each out/ref value in the debuggee's heap (a one-element array made there,
// whose element is passed by reference) and the value is read back after the call.
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using ModuleMetadata = PyInspect.Debugger.Symbols.ModuleMetadata;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;

namespace PyInspect.Debugger.Evaluation.Calls;

/// <summary>An out or ref argument: the name it binds (null for `out _`) and, for ref, the value going in.</summary>
internal sealed record OutSlot(string? Name, bool IsRef, object? Initial);

public static class OutArguments
{
    public static bool Any(SeparatedSyntaxList<ArgumentSyntax> arguments) =>
        arguments.Any(a => !a.RefKindKeyword.IsKind(SyntaxKind.None));

    /// <summary>The call's result; the out/ref values are declared in the expression's scope and reported.</summary>
    public static object? Invoke(Interpreter interpreter, object? receiver, bool hasReceiver, string name,
        SeparatedSyntaxList<ArgumentSyntax> arguments, string text)
    {
        var values = new List<object?>();
        foreach (var argument in arguments)
            values.Add(argument.RefKindKeyword.IsKind(SyntaxKind.None) ? EvalValues.Local(interpreter.Eval(argument.Expression))
                : SlotOf(interpreter, argument, text));
        object? local = EvalValues.Local(receiver);
        var (result, outs) = receiver is TypeRef type && Invocation.LocalStaticTypes.Contains(type.FullName) && AllLocal(values)
                && Type.GetType(type.FullName) is { } reflected
            ? Reflect(reflected, null, name, values, text)
            : hasReceiver && local is string or IConvertible && local is not RemoteValue && AllLocal(values)
                ? Reflect(local!.GetType(), local, name, values, text)
                : Debuggee(interpreter, receiver, hasReceiver, name, values, text);
        foreach (var (slot, value) in outs)
            if (slot.Name is { } bound) interpreter.Context.DeclareOut(bound, value);
        return result;
    }

    private static bool AllLocal(List<object?> values) =>
        values.All(v => v is not (RemoteValue or SequenceValue or PairValue or EnumValue or IComputedValue));

    private static OutSlot SlotOf(Interpreter interpreter, ArgumentSyntax argument, string text)
    {
        bool isRef = argument.RefKindKeyword.IsKind(SyntaxKind.RefKeyword);
        if (!isRef && !argument.RefKindKeyword.IsKind(SyntaxKind.OutKeyword))
            throw new EvalException($"cannot evaluate '{text}': '{argument.RefKindKeyword.ValueText}' arguments are not supported");
        switch (argument.Expression)
        {
            case DeclarationExpressionSyntax { Designation: SingleVariableDesignationSyntax single } when !isRef:
                return new OutSlot(single.Identifier.ValueText, false, null);
            case DeclarationExpressionSyntax { Designation: DiscardDesignationSyntax } when !isRef:
            case IdentifierNameSyntax { Identifier.ValueText: "_" } when !isRef:
                return new OutSlot(null, false, null);
            case IdentifierNameSyntax declared when interpreter.Context.TryLambdaVariable(declared.Identifier.ValueText, out object? current):
                return new OutSlot(declared.Identifier.ValueText, isRef, isRef ? EvalValues.Local(current) : null);
            default:
                throw new EvalException($"cannot evaluate '{text}': '{argument}' would write a variable of the program; "
                    + $"pass 'out var name' (the value is reported, and usable later in the same expression)");
        }
    }

    /// <summary>A method of a local string or number (int.TryParse...), run here.</summary>
    private static (object? Result, List<(OutSlot, object?)> Outs) Reflect(Type type, object? target, string name, List<object?> values, string text)
    {
        var flags = BindingFlags.Public | (target is null ? BindingFlags.Static : BindingFlags.Instance);
        foreach (MethodInfo method in type.GetMethods(flags).Where(m => m.Name == name && m.GetParameters().Length == values.Count))
        {
            var parameters = method.GetParameters();
            if (method.ContainsGenericParameters || !Fits(parameters, values)) continue;
            object?[] passed = [.. values.Select((v, i) => v is OutSlot slot ? Pass(slot.Initial, parameters[i].ParameterType.GetElementType()!, text)
                : Pass(v, parameters[i].ParameterType, text))];
            try
            {
                object? result = method.Invoke(target, passed);
                return (result, [.. values.Select((v, i) => (v, i)).Where(p => p.v is OutSlot).Select(p => ((OutSlot)p.v!, passed[p.i]))]);
            }
            catch (TargetInvocationException thrown) when (thrown.InnerException is { } inner)
            {
                throw new EvalException($"'{text}' threw {inner.GetType().FullName}: {inner.Message}");
            }
        }
        throw new EvalException($"cannot evaluate '{text}': no method {type.Name}.{name} takes these {values.Count} argument(s)");
    }

    private static object? Pass(object? value, Type parameter, string text) =>
        value is null || parameter.IsInstanceOfType(value) ? value : Operators.Convert(value, parameter, text);

    private static bool Fits(ParameterInfo[] parameters, List<object?> values)
    {
        for (int i = 0; i < values.Count; i++)
        {
            Type parameter = parameters[i].ParameterType;
            if (values[i] is OutSlot slot)
            {
                if (!parameter.IsByRef || parameters[i].IsOut == slot.IsRef) return false;
                continue;
            }
            if (parameter.IsByRef || parameter.IsByRefLike) return false;
            bool converts = parameter.IsPrimitive && values[i] is IConvertible and not string and not bool && !(parameter == typeof(bool));
            if (values[i] is null ? parameter.IsValueType : !parameter.IsInstanceOfType(values[i]) && !converts) return false;
        }
        return true;
    }

    /// <summary>A debuggee method: `this`'s own (most derived first), a static of the named type, or one of the frame's class.</summary>
    private static (object? Result, List<(OutSlot, object?)> Outs) Debuggee(Interpreter interpreter, object? receiver, bool hasReceiver,
        string name, List<object?> values, string text)
    {
        EvalContext context = interpreter.Context;
        ICorDebugValue? self = null;
        IEnumerable<(ICorDebugType? Level, ICorDebugClass Class, ModuleMetadata Metadata, int Token)> levels;
        if (receiver is TypeRef type)
            levels = Static(type);
        else if (hasReceiver)
            levels = Instance(receiver, name, text, out self);
        else if (interpreter.This() is { } me && Instance(new RemoteValue(me), name, text, out self) is var own
                 && own.Any(l => l.Metadata.Methods(l.Token, name).Any()))
            levels = own;
        else
            levels = Types.EnclosingType(context) is { } enclosing ? Static(enclosing) : throw new EvalException($"'{name}' is not a method of this type");
        foreach (var (level, cls, md, token) in levels)
        {
            IReadOnlyList<ICorDebugType> classTypes = level is null ? [] : TypeNames.TypeArguments(level);
            foreach (var method in md.Methods(token, name).Where(m => m.IsStatic == (self is null) && m.ParameterTypes.Count == values.Count))
            {
                var parameters = Arguments.Instantiate(method.ParameterTypes, classTypes);
                if (!FitsDebuggee(parameters, values)) continue;
                return OutCall.Run(interpreter, cls, method, classTypes, self, parameters, values, text);
            }
        }
        throw new EvalException($"'{name}' is not a method taking these {values.Count} argument(s), with out/ref where written, in '{text}'");
    }

    private static IEnumerable<(ICorDebugType? Level, ICorDebugClass Class, ModuleMetadata Metadata, int Token)> Static(TypeRef type)
    {
        var (md, cls) = Invocation.ClassOf(type);
        return [(null, cls, md, type.Token)];
    }

    private static List<(ICorDebugType? Level, ICorDebugClass Class, ModuleMetadata Metadata, int Token)> Instance(object? receiver, string name, string text, out ICorDebugValue? self)
    {
        if (receiver is not RemoteValue remote || ValuePath.Dereference(remote.Value) is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0)
            throw new EvalException($"cannot call '{name}' with out/ref arguments on {Display.RuntimeTypeName(receiver)} in '{text}'");
        self = remote.Value;
        return [.. Members.Levels(type).Select(l => ((ICorDebugType?)l.Level, l.Class, l.Metadata, l.Token))];
    }

    /// <summary>Out/ref exactly where the parameters are by reference; the other arguments as ordinary calls take them.</summary>
    private static bool FitsDebuggee(IReadOnlyList<string> parameters, List<object?> values)
    {
        var plainParameters = new List<string>();
        var plainValues = new List<object?>();
        for (int i = 0; i < values.Count; i++)
        {
            bool byRef = parameters[i].EndsWith('&');
            if (values[i] is OutSlot != byRef) return false;
            if (byRef) continue;
            plainParameters.Add(parameters[i]);
            plainValues.Add(values[i]);
        }
        return Arguments.Score(plainParameters, plainValues) >= 0;
    }
}
