// A base method called without virtual dispatch, as `base.M()` compiles to `call` in C#.
// ICorDebugEval always dispatches a virtual method through the object's own type, so the
// call goes through a delegate instead: the base method's own code address (its
// RuntimeMethodHandle's function pointer, which is what `ldftn` gives) bound to `this` in a
// Func/Action made in the debuggee, then invoked. A delegate made from a code address calls
// exactly that code. Every step is a func-eval, so this runs only where calls are allowed.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;
using PyInspect.Debugger.Evaluation.Getters;

namespace PyInspect.Debugger.Evaluation.Calls;

internal static class BaseCall
{
    /// <summary>Runs `method` of the base class `level` (found `depth` bases above `this`'s runtime type) on `this`.</summary>
    public static object? NonVirtual(Interpreter interpreter, ICorDebugClass cls, ICorDebugType level, int depth, EvalMethod method,
        ICorDebugValue self, List<object?> arguments, string text)
    {
        EvalContext context = interpreter.Context;
        if (cls.GetModule(out var module) >= 0 && module.GetFunctionFromToken(method.Token, out var code) >= 0 && method.GenericArity == 0
            && IlCalls.TryRun(context, code, TypeNames.TypeArguments(level), self, arguments, out object? interpreted, virtualDispatch: false))
            return interpreted;  // the interpreter calls the base method itself, no delegate needed
        ICorDebugFunction function = Invocation.FunctionOf(interpreter, cls, method);
        if (method.GenericArity > 0 || TypeNames.TypeArguments(level).Count > 0)
            throw new EvalException($"cannot evaluate '{text}': a base call of an overridden generic method, or of a method of a "
                + "generic base class, is not supported (func-eval would run the override)");
        var me = new RemoteValue(context.Pin(self));
        ICorDebugValue pointer = FunctionPointer(interpreter, me, depth, method.Token, text);
        ICorDebugType delegateType = DelegateType(context, level, method, out ICorDebugFunction constructor, text);
        ICorDebugValue bound = context.NewObject(constructor, TypeNames.TypeArguments(delegateType), [me.Value, pointer]);
        return Invocation.CallMethod(interpreter, new RemoteValue(bound), "Invoke", arguments, text);
    }

    /// <summary>this.GetType().BaseType... .Module.ResolveMethod(token).MethodHandle.GetFunctionPointer(), in the debuggee.</summary>
    private static ICorDebugValue FunctionPointer(Interpreter interpreter, RemoteValue self, int depth, int token, string text)
    {
        object? type = interpreter.Stable(Invocation.CallMethod(interpreter, self, "GetType", [], text));
        for (int i = 0; i < depth; i++) type = interpreter.Stable(interpreter.Member(type, "BaseType", text));
        object? module = interpreter.Stable(interpreter.Member(type, "Module", text));
        object? method = interpreter.Stable(Invocation.CallMethod(interpreter, Remote(module, text), "ResolveMethod", [token], text));
        object? handle = interpreter.Member(method, "MethodHandle", text);
        return Remote(Invocation.CallMethod(interpreter, Remote(handle, text), "GetFunctionPointer", [], text), text).Value;
    }

    private static RemoteValue Remote(object? value, string text) =>
        value as RemoteValue ?? throw new EvalException($"cannot evaluate '{text}': reflection in the debuggee gave no object");

    /// <summary>Func&lt;parameters..., result&gt; or Action&lt;parameters...&gt; of the method's signature, and its (object, IntPtr) constructor.</summary>
    private static unsafe ICorDebugType DelegateType(EvalContext context, ICorDebugType level, EvalMethod method,
        out ICorDebugFunction constructor, string text)
    {
        bool isVoid = method.ReturnType == "System.Void";
        var signature = method.ParameterTypes.Concat(isVoid ? [] : [method.ReturnType]).ToList();
        string name = isVoid ? (signature.Count == 0 ? "System.Action" : $"System.Action`{signature.Count}") : $"System.Func`{signature.Count}";
        TypeRef type = Types.Resolve(name, context) ?? throw new EvalException($"cannot evaluate '{text}': {name} is not found");
        var typeArguments = signature.Select(t => TypeOf(context, t, text)).ToList();
        if (ModuleMetadata.TryOpen(type.Module.Path)?.Methods(type.Token, ".ctor").FirstOrDefault(m => m.ParameterTypes.Count == 2) is not { } ctor
            || type.Module.Module.GetClassFromToken(type.Token, out var cls) < 0 || cls.GetModule(out var module) < 0
            || module.GetFunctionFromToken(ctor.Token, out constructor) < 0 || cls is not ICorDebugClass2 generic)
            throw new EvalException($"cannot evaluate '{text}': the constructor of {name} is not found");
        var pointers = typeArguments.Select(a => (nint)System.Runtime.InteropServices.Marshalling.ComInterfaceMarshaller<ICorDebugType>.ConvertToUnmanaged(a)).ToArray();
        try
        {
            fixed (nint* p = pointers)
                if (generic.GetParameterizedType(CorElementType.Class, (uint)pointers.Length, p, out var made) >= 0) return made;
        }
        finally
        {
            foreach (nint pointer in pointers) System.Runtime.InteropServices.Marshal.Release(pointer);
        }
        throw new EvalException($"cannot evaluate '{text}': cannot make {name} in the debuggee");
    }

    private static ICorDebugType TypeOf(EvalContext context, string metadataName, string text)
    {
        if (metadataName.Contains('!') || metadataName.Contains('<') || metadataName.Contains('&') || metadataName.Contains('['))
            throw new EvalException($"cannot evaluate '{text}': a base call with a parameter or result of type {metadataName} is not supported");
        var syntax = Microsoft.CodeAnalysis.CSharp.SyntaxFactory.ParseTypeName(metadataName.Replace('+', '.'));
        return Types.Instantiate(syntax, context).Instance;
    }
}
