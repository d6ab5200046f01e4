// Delegates in interpreted code: `ldftn`/`ldvirtftn` and a delegate's constructor make an
// adapter-side delegate (a method and its target), and `Invoke` on it, or on a delegate the
// debuggee holds (its method and target read through ICorDebugDelegateObjectValue), runs that
// method by the interpreter, so a getter that hands a lambda to LINQ answers read-only.
// Multicast delegates and delegates the debuggee holds to generic methods are refused.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

/// <summary>What `ldftn`/`ldvirtftn` push (the runtime's function pointer): only ever handed to a delegate's constructor.</summary>
public sealed record MethodPointer(IlMethod Method);

/// <summary>A delegate the interpreted code made: its type, its target (null for a static method) and its method.</summary>
public sealed record MadeDelegate(IlNamed Type, object? Target, IlMethod Method);

public sealed partial class IlMachine
{
    private bool IsDelegateType(IlNamed type) => resolver.BaseOf(type) is IlNamed { Name: "System.MulticastDelegate" };

    private bool IsDelegateInvoke(IlMethod method) => method.Name == "Invoke" && !method.IsStatic && IsDelegateType(method.DeclaringType);

    /// <summary>`ldvirtftn`: the body a virtual call on this object would run.</summary>
    private MethodPointer VirtualPointer(object? receiver, IlMethod method) =>
        receiver is null ? throw IlErrors.NullReference()
            : new MethodPointer(method.IsVirtual ? Devirtualize(method, RuntimeType(receiver)) : method);

    /// <summary>A delegate's constructor (object target, native int method).</summary>
    private static MadeDelegate MakeDelegate(IlNamed type, object?[] args) => args is [var target, MethodPointer pointer]
        ? new MadeDelegate(type, target, pointer.Method)
        : throw new IlRefusal($"makes a {IlResolver.DisplayName(type.Name)} from something other than a method");

    /// <summary>`Invoke`: the delegate's method with its target (a static method closed over its first argument included).</summary>
    private object? InvokeDelegate(object?[] args)
    {
        (object? target, IlMethod method) = args[0] switch
        {
            null => throw IlErrors.NullReference(),
            MadeDelegate made => (made.Target, made.Method),
            DebuggeeObject held => _debuggee.DelegateOf(held, this),
            var other => throw new IlRefusal($"invokes {IlValue.Describe(other)} as a delegate"),
        };
        object?[] rest = args[1..];
        return target is null ? Run(method, rest) : Run(method, [ThisFor(method, target), .. rest]);
    }
}

public sealed partial class IlDebuggee
{
    /// <summary>A debuggee delegate's target and method. A method of a generic class is found on the target's
    /// own type (its instantiation); a static one of a generic class, or a generic method, is refused.</summary>
    public (object? Target, IlMethod Method) DelegateOf(DebuggeeObject held, IlMachine machine)
    {
        if (held.Target is not ICorDebugDelegateObjectValue value)
            throw new IlRefusal("invokes a delegate ICorDebug does not read");
        int hr = value.GetFunction(out var function);
        if (hr < 0) throw new IlRefusal($"invokes a delegate whose method ICorDebug does not tell (0x{hr:X8}: multicast, or generic code)");
        if (value.GetTarget(out var targetReference) < 0) throw new IlRefusal("cannot read a delegate's target");
        object? target = targetReference is null ? null : Read(targetReference);
        if (function.GetModule(out var module) < 0 || function.GetToken(out int token) < 0 || function.GetClass(out var cls) < 0
            || cls.GetToken(out int classToken) < 0)
            throw new IlRefusal("cannot read a delegate's method");
        string path = DebuggerEngine.ModuleName(module);
        var md = IlResolver.Reader(path);
        var definition = md.GetMethodDefinition(System.Reflection.Metadata.Ecma335.MetadataTokens.MethodDefinitionHandle(token & 0xFFFFFF));
        if (definition.GetGenericParameters().Count > 0) throw new IlRefusal("invokes a delegate the debuggee holds to a generic method");
        IlNamed declaring = DeclaringTypeOf(path, classToken, target, machine);
        return (target, resolver.Method(declaring, token, []));
    }

    private IlNamed DeclaringTypeOf(string path, int classToken, object? target, IlMachine machine)
    {
        var md = IlResolver.Reader(path);
        bool generic = md.GetTypeDefinition(System.Reflection.Metadata.Ecma335.MetadataTokens.TypeDefinitionHandle(classToken & 0xFFFFFF))
            .GetGenericParameters().Count > 0;
        if (!generic) return resolver.AsNamed(resolver.Named(path, classToken, []));
        IlType? level = target is null ? null : machine.RuntimeType(target);
        for (int depth = 0; level is IlNamed named && depth < 64; depth++, level = resolver.BaseOf(named))
            if (named.Token == classToken && named.ModulePath == path) return named;
        throw new IlRefusal("invokes a delegate the debuggee holds to a static method of a generic class");
    }
}
