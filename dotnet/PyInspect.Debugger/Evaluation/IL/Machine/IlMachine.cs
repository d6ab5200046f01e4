// The stack machine: runs a method's IL against interpreter values, one frame per call,
// counting every instruction against the evaluation's budget. Nested calls are run the
// same way (IlCallSite decides which body runs); what it cannot do safely it refuses.
using System.Collections.Concurrent;
using System.Reflection.Emit;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public sealed partial class IlMachine(EvalContext context, IlResolver resolver, long budget)
{
    public const int MaxDepth = 64;
    private readonly IlDebuggee _debuggee = new(resolver, context);
    private int _depth;

    public IlResolver Resolver => resolver;
    public IlDebuggee Debuggee => _debuggee;
    public long Executed { get; private set; }
    public long Budget => budget;

    private sealed class Frame(IlMethod method, IlCode code, object?[] args, object?[] locals, IReadOnlyList<IlType> localTypes)
    {
        public IlMethod Method { get; } = method;
        public IlCode Code { get; } = code;
        public object?[] Args { get; } = args;
        public object?[] Locals { get; } = locals;
        public IReadOnlyList<IlType> LocalTypes { get; } = localTypes;
        public Stack<object?> Stack { get; } = new();
        public IlType? Constrained { get; set; }
        /// <summary>The exceptions the catch handlers now running caught, innermost last (what `rethrow` throws).</summary>
        public Stack<IlThrown> Caught { get; } = new();
    }

    /// <summary>A decoded body; JitOnly: an [Intrinsic] whose IL only stands in for what the JIT emits (it calls
    /// itself, or throws PlatformNotSupportedException, as CoreLib's Unsafe does): decided once per body.</summary>
    private sealed record Body(IlCode Code, StandaloneSignatureHandle Locals, bool JitOnly);

    private static readonly ConcurrentDictionary<(string, int), Body> Bodies = new();

    private static Body BodyOf(IlMethod method) => Bodies.GetOrAdd((method.ModulePath, method.Token), key =>
    {
        var md = ModuleMetadata.Open(key.Item1);
        var definition = md.Reader.GetMethodDefinition(MetadataTokens.MethodDefinitionHandle(key.Item2 & 0xFFFFFF));
        if (definition.RelativeVirtualAddress == 0) throw new IlRefusal("has no IL body");
        MethodBodyBlock block = md.PE.GetMethodBody(definition.RelativeVirtualAddress);
        var regions = block.ExceptionRegions.Select(r => new IlRegion(r.Kind switch
            {
                ExceptionRegionKind.Catch => IlRegionKind.Catch, ExceptionRegionKind.Filter => IlRegionKind.Filter,
                ExceptionRegionKind.Finally => IlRegionKind.Finally, _ => IlRegionKind.Fault,
            }, r.TryOffset, r.TryOffset + r.TryLength, r.HandlerOffset, r.HandlerOffset + r.HandlerLength,
            r.CatchType.IsNil ? 0 : MetadataTokens.GetToken(r.CatchType), r.FilterOffset)).ToList();
        IlCode code = IlCode.Decode(block.GetILBytes(), regions);
        bool jitOnly = IsJitIntrinsic(md.Reader, definition) && (CallsItself(key.Item2, code) || ThrowsNotSupported(md.Reader, code));
        return new Body(code, block.LocalSignature, jitOnly);
    });

    /// <summary>Runs a method's body (args: `this` first for instance methods) and returns what it returns.</summary>
    public object? Run(IlMethod method, object?[] args)
    {
        if (++_depth > MaxDepth) throw new IlRefusal($"nests calls deeper than {MaxDepth}");
        try
        {
            if (IsDelegateInvoke(method)) return InvokeDelegate(args);
            if (IlIntrinsics.TryCall(this, method, args, out object? result)) return result;
            IlPolicy.RefuseIfForbidden(method);
            if (method.IsStatic && method.Name != ".cctor" && !IsBeforeFieldInit(method.DeclaringType))
                _debuggee.RefuseBeforeStaticConstructor(method.DeclaringType, $"calls {method.DisplayName}");
            Body body = BodyOf(method);
            if (body.JitOnly) throw new IlRefusal($"relies on the JIT to implement {method.DisplayName}");
            IReadOnlyList<IlType> localTypes = body.Locals.IsNil ? [] : IlResolver.Reader(method.ModulePath)
                .GetStandaloneSignature(body.Locals).DecodeLocalSignature(new IlSignatures(resolver, method.ModulePath), method.Context);
            var locals = localTypes.Select(Default).ToArray();
            var frame = new Frame(method, body.Code, args, locals, localTypes);
            return Execute(frame, 0, false);
        }
        catch (IlRefusal refusal) when (refusal.Method is null)
        {
            if (refusal.OfTheCall) refusal.OfTheCall = false;  // its reason names this method; the caller refused it
            else refusal.Method = method.DisplayName;
            throw;
        }
        finally
        {
            _depth--;
        }
    }

    private static bool IsBeforeFieldInit(IlNamed type) =>
        (IlResolver.Reader(type.ModulePath).GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(type.Token & 0xFFFFFF)).Attributes
            & System.Reflection.TypeAttributes.BeforeFieldInit) != 0;

    private static bool CallsItself(int token, IlCode code) =>
        code.Instructions.Any(i => (i.OpCode == OpCodes.Call || i.OpCode == OpCodes.Callvirt) && i.Operand is int called && called == token);

    private static bool ThrowsNotSupported(MetadataReader md, IlCode code) =>
        code.Instructions.Any(i => i.OpCode == OpCodes.Newobj && i.Operand is int token
            && OwnerName(md, MetadataTokens.EntityHandle(token)) == ("System", "PlatformNotSupportedException"));

    /// <summary>Marked [Intrinsic]: the JIT may replace its body.</summary>
    private static bool IsJitIntrinsic(MetadataReader md, MethodDefinition definition) =>
        definition.GetCustomAttributes().Any(handle => OwnerName(md, md.GetCustomAttribute(handle).Constructor).Name == "IntrinsicAttribute");

    /// <summary>The namespace and name of the type that declares a method (a definition or a reference), read from metadata.</summary>
    private static (string? Namespace, string? Name) OwnerName(MetadataReader md, EntityHandle method)
    {
        EntityHandle owner = method.Kind switch
        {
            HandleKind.MethodDefinition => md.GetMethodDefinition((MethodDefinitionHandle)method).GetDeclaringType(),
            HandleKind.MemberReference => md.GetMemberReference((MemberReferenceHandle)method).Parent,
            _ => default,
        };
        return owner.Kind switch
        {
            HandleKind.TypeDefinition when md.GetTypeDefinition((TypeDefinitionHandle)owner) is var type
                => (md.GetString(type.Namespace), md.GetString(type.Name)),
            HandleKind.TypeReference when md.GetTypeReference((TypeReferenceHandle)owner) is var reference
                => (md.GetString(reference.Namespace), md.GetString(reference.Name)),
            _ => (null, null),
        };
    }

    /// <summary>A type's default value as the interpreter holds it (structs as zeroed adapter-side structs).</summary>
    public object? Default(IlType type) => type switch
    {
        IlPrimitive { ElementType: Engine.CorElementType.I8 or Engine.CorElementType.U8 or Engine.CorElementType.I or Engine.CorElementType.U } => 0L,
        IlPrimitive { ElementType: Engine.CorElementType.R4 or Engine.CorElementType.R8 } => 0.0,
        IlPrimitive { IsValueType: true } => 0,
        IlNamed { Kind: IlTypeKind.Enum } named => EnumIsWide(named) ? 0L : 0,
        IlNamed { Name: "System.Decimal" } => 0m,
        IlNamed { Kind: IlTypeKind.Struct } named => new LocalObject(named),
        IlGenericParameter => throw new IlRefusal("needs the default of an unresolved generic parameter"),
        _ => null,
    };

    private bool EnumIsWide(IlNamed type) =>
        resolver.InstanceFields(type).FirstOrDefault()?.FieldType is IlPrimitive { ElementType: Engine.CorElementType.I8 or Engine.CorElementType.U8 };

    private void Count()
    {
        if (++Executed > budget) throw new IlRefusal($"ran past the budget of {budget} IL instructions");
    }

    /// <summary>Runs from an instruction until `ret` (the method's result), or, for a finally block or a filter
    /// (`untilEnd`), until its endfinally or endfilter (null, or the filter's verdict).</summary>
    private object? Execute(Frame f, int index, bool untilEnd)
    {
        var code = f.Code.Instructions;
        while (true)
        {
            if (index >= code.Count) throw new IlRefusal("ran off the end of its IL");
            IlInstruction instruction = code[index];
            Count();
            Step step;
            try
            {
                step = Step1(f, instruction, index);
            }
            catch (IlThrown thrown)
            {
                if (untilEnd) throw;  // out of a finally block or filter: handlers around it are not its own
                index = f.Code.IndexOf(Unwind(f, instruction.Offset, thrown));
                continue;
            }
            switch (step.Kind)
            {
                case StepKind.Next: index++; break;
                case StepKind.Jump: index = f.Code.IndexOf(step.Target); break;
                case StepKind.Leave:
                    RunFinallies(f, instruction.Offset, step.Target);
                    LeaveCatches(f, instruction.Offset, step.Target);
                    f.Stack.Clear();
                    index = f.Code.IndexOf(step.Target);
                    break;
                case StepKind.EndFinally or StepKind.EndFilter:
                    if (untilEnd) return step.Value;
                    throw new IlRefusal($"reached {(step.Kind == StepKind.EndFilter ? "endfilter" : "endfinally")} outside its block");
                case StepKind.Return:
                    return step.Value;
            }
        }
    }

    /// <summary>An exception leaving protected blocks (innermost first): a finally block runs and it goes on; a catch
    /// whose class the exception is an instance of (base classes included), or a filter that answers true, takes it:
    /// the offset its handler starts at. None takes it: it leaves the method.</summary>
    private int Unwind(Frame f, int offset, IlThrown thrown)
    {
        foreach (var region in f.Code.Regions)
        {
            if (!region.Protects(offset)) continue;
            f.Stack.Clear();
            if (region.IsFinally)
            {
                RunFinally(f, region);
                continue;
            }
            LocalObject exception = ExceptionObject(thrown);
            bool takes = region.Kind == IlRegionKind.Catch
                ? IsInstance(exception, resolver.ResolveType(f.Method.ModulePath, region.CatchType, f.Method.Context))
                : Filter(f, region, exception);
            if (!takes) continue;
            f.Stack.Clear();
            f.Stack.Push(exception);
            f.Caught.Push(thrown);
            return region.HandlerStart;
        }
        throw thrown;
    }

    /// <summary>A filter block run on the exception: its endfilter's verdict (an exception inside it means false, as the runtime has it).</summary>
    private bool Filter(Frame f, IlRegion region, LocalObject exception)
    {
        var saved = f.Stack.ToArray();
        f.Stack.Clear();
        f.Stack.Push(exception);
        try
        {
            return IlValue.AsLong(Execute(f, f.Code.IndexOf(region.FilterStart), true)) != 0;
        }
        catch (IlThrown)
        {
            return false;
        }
        finally
        {
            f.Stack.Clear();
            foreach (object? value in saved.Reverse()) f.Stack.Push(value);
        }
    }

    /// <summary>The exception as the object a catch handler gets: the one `throw` threw, or the runtime's own
    /// exception (NullReferenceException, ...) made adapter-side with its message.</summary>
    private LocalObject ExceptionObject(IlThrown thrown)
    {
        if (thrown.Object is { } made) return made;
        int dot = thrown.TypeName.LastIndexOf('.');
        IlNamed type = resolver.CoreLibType(thrown.TypeName[..Math.Max(dot, 0)], thrown.TypeName[(dot + 1)..]);
        var exception = new LocalObject(type);
        exception.Fields["_message"] = thrown.Message;
        thrown.Object = exception;
        return exception;
    }

    private static void LeaveCatches(Frame f, int from, int to)
    {
        foreach (var region in f.Code.Regions)
        {
            if (region.IsFinally || f.Caught.Count == 0) continue;
            bool inHandler = from >= region.HandlerStart && from < region.HandlerEnd;
            if (inHandler && !(to >= region.HandlerStart && to < region.HandlerEnd)) f.Caught.Pop();
        }
    }

    /// <summary>`leave` out of protected blocks runs their finally blocks; fault blocks run only for an exception
    /// (an iterator's MoveNext leaves its try at every `yield return`: a fault there would end the iteration).</summary>
    private void RunFinallies(Frame f, int from, int to)
    {
        foreach (var region in f.Code.Regions)
        {
            if (region.Kind != IlRegionKind.Finally) continue;
            if (region.Protects(from) && !region.Protects(to)) RunFinally(f, region);
        }
    }

    /// <summary>A finally block; one that throws is refused (where its exception would go next is not modelled).</summary>
    private void RunFinally(Frame f, IlRegion region)
    {
        try
        {
            Execute(f, f.Code.IndexOf(region.HandlerStart), true);
        }
        catch (IlThrown thrown)
        {
            throw new IlRefusal($"throws {thrown.TypeName} from a finally block");
        }
    }

    private enum StepKind { Next, Jump, Leave, EndFinally, EndFilter, Return }

    private readonly record struct Step(StepKind Kind, int Target = 0, object? Value = null)
    {
        public static readonly Step Next = new(StepKind.Next);
    }

    private object? Pop(Frame f) => f.Stack.Count > 0 ? f.Stack.Pop() : throw new IlRefusal("pops an empty stack");

    private object?[] PopArgs(Frame f, int count)
    {
        var values = new object?[count];
        for (int i = count - 1; i >= 0; i--) values[i] = IlValue.CopyIfStruct(Pop(f));
        return values;
    }

    private string UserString(Frame f, int token) =>
        IlResolver.Reader(f.Method.ModulePath).GetUserString(MetadataTokens.UserStringHandle(token & 0xFFFFFF));
}
