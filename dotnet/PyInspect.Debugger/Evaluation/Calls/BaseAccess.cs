// `base.Member` as C# means it: members looked up from the base of the class the stopped
// code is written in (not of the object's runtime type), read without virtual dispatch.
// Fields and auto-properties are read from memory at that level. Getters and methods run
// by func-eval, which always dispatches virtually (the runtime resolves a virtual method
// through the object's own type): that is right unless a more derived class overrides the
// member, and then the call goes through a delegate to the base's own code (BaseCall).
using System.Reflection;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;

namespace PyInspect.Debugger.Evaluation.Calls;

public static class BaseAccess
{
    private sealed record Level(ICorDebugType Type, ICorDebugClass Class, ModuleMetadata Metadata, int Token);

    public static bool IsBase(ExpressionSyntax syntax) => syntax is BaseExpressionSyntax;

    /// <summary>`base.name`: a field, auto-property or getter of the base class and its bases.</summary>
    public static object? Member(Interpreter interpreter, string name, string text)
    {
        var (self, derived, bases) = Split(interpreter, text);
        foreach (var level in bases)
        {
            foreach (var field in level.Metadata.Fields(level.Token))
            {
                if (field.Name != name && ModuleMetadata.FieldDisplayName(field.Name) != name) continue;
                return Members.FieldValue(interpreter.Context, field.IsStatic ? null : (ICorDebugObjectValue)ValuePath.Dereference(self)!,
                    level.Type, level.Class, field);
            }
            if (level.Metadata.Properties(level.Token).FirstOrDefault(p => p.Name == name && p.IndexCount == 0) is { } property)
            {
                if (Overrides(level, "get_" + name, property.GetterToken, derived))
                    return BaseCall.NonVirtual(interpreter, level.Class, level.Type, derived.Count + bases.IndexOf(level),
                        level.Metadata.Methods(level.Token, "get_" + name).First(m => m.Token == property.GetterToken), self, [], text);
                return Members.CallGetter(interpreter.Context, level.Class, level.Type, property, property.IsStatic ? [] : [interpreter.Context.Pin(self)]);
            }
        }
        throw new EvalException($"'{name}' is not a field or property of the base class of {TypeNames.DeclaredName(derived[^1].Class)} in '{text}'");
    }

    /// <summary>`base.name(arguments)`: the first overload the arguments fit, from the base class up.</summary>
    public static object? Call(Interpreter interpreter, string name, List<object?> arguments, string text)
    {
        var (self, derived, bases) = Split(interpreter, text);
        foreach (var level in bases)
        {
            var candidates = level.Metadata.Methods(level.Token, name).Where(m => m.ParameterTypes.Count == arguments.Count);
            IReadOnlyList<ICorDebugType> typeArguments = TypeNames.TypeArguments(level.Type);
            if (Invocation.Pick(candidates, arguments, typeArguments) is not { } method) continue;
            if (method.IsStatic) return Invocation.Run(interpreter, level.Class, method, typeArguments, null, arguments);
            if (Overrides(level, name, method.Token, derived))
                return BaseCall.NonVirtual(interpreter, level.Class, level.Type, derived.Count + bases.IndexOf(level), method, self, arguments, text);
            return Invocation.Run(interpreter, level.Class, method, typeArguments, interpreter.Context.Pin(self), arguments);
        }
        throw new EvalException($"'{name}' is not a method of the base class of {TypeNames.DeclaredName(derived[^1].Class)} taking {arguments.Count} argument(s) in '{text}'");
    }

    /// <summary>`this`, the levels from its runtime type down to the class the code is written
    /// in (the ones that may override), and the levels from that class's base up.</summary>
    private static (ICorDebugValue Self, List<Level> Derived, List<Level> Bases) Split(Interpreter interpreter, string text)
    {
        EvalContext context = interpreter.Context;
        if (interpreter.This() is not { } self)
            throw new EvalException($"'base' is not available in a static method ('{text}')");
        if (Types.EnclosingType(context) is not { } enclosing)
            throw new EvalException($"cannot tell which class '{text}' is written in");
        if (ValuePath.Dereference(self) is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0)
            throw new EvalException($"cannot read the type of 'this' for '{text}'");
        var levels = Members.Levels(type).Select(l => new Level(l.Level, l.Class, l.Metadata, l.Token)).ToList();
        string enclosingPath = Path.GetFullPath(enclosing.Module.Path);
        int at = levels.FindIndex(l => l.Token == enclosing.Token && l.Class.GetModule(out var module) >= 0
            && Path.GetFullPath(DebuggerEngine.ModuleName(module)) == enclosingPath);
        if (at < 0) throw new EvalException($"'this' is not a {enclosing.FullName} ('{text}')");
        if (at + 1 >= levels.Count) throw new EvalException($"{enclosing.FullName} has no base class with members ('{text}')");
        return (self, levels[..(at + 1)], levels[(at + 1)..]);
    }

    /// <summary>Whether a more derived class overrides the virtual method (func-eval would run that override).</summary>
    private static bool Overrides(Level level, string name, int methodToken, List<Level> derived)
    {
        MethodAttributes attributes = level.Metadata.MethodAttributesOf(methodToken);
        if ((attributes & MethodAttributes.Abstract) != 0)
            throw new EvalException($"{TypeNames.DeclaredName(level.Class)}.{name} is abstract: it has no code of its own to call through 'base'");
        if ((attributes & MethodAttributes.Virtual) == 0 || (attributes & MethodAttributes.Final) != 0) return false;
        int count = level.Metadata.Methods(level.Token, name).First(m => m.Token == methodToken).ParameterTypes.Count;
        return derived.Any(lower => lower.Metadata.Methods(lower.Token, name).Any(candidate => !candidate.IsStatic
            && candidate.ParameterTypes.Count == count
            && (lower.Metadata.MethodAttributesOf(candidate.Token) & (MethodAttributes.Virtual | MethodAttributes.NewSlot)) == MethodAttributes.Virtual));
    }
}
