// The stack machine: runs a method's IL against interpreter values, one frame per call,
// counting every instruction against the evaluation's budget. Nested calls are run the
// same way (IlCallSite decides which body runs); what it cannot do safely it refuses.
using System.Collections.Concurrent;
using System.Reflection.Emit;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Evaluation.IL;

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
    }

    private sealed record Body(IlCode Code, StandaloneSignatureHandle Locals);

    private static readonly ConcurrentDictionary<(string, int), Body> Bodies = new();

    private static Body BodyOf(IlMethod method) => Bodies.GetOrAdd((method.ModulePath, method.Token), key =>
    {
        var md = ModuleMetadata.Open(key.Item1);
        var definition = md.Reader.GetMethodDefinition(MetadataTokens.MethodDefinitionHandle(key.Item2 & 0xFFFFFF));
        if (definition.RelativeVirtualAddress == 0) throw new IlRefusal("has no IL body");
        MethodBodyBlock block = md.PE.GetMethodBody(definition.RelativeVirtualAddress);
        var regions = block.ExceptionRegions.Select(r => new IlRegion(r.Kind is ExceptionRegionKind.Finally or ExceptionRegionKind.Fault,
            r.TryOffset, r.TryOffset + r.TryLength, r.HandlerOffset, r.HandlerOffset + r.HandlerLength)).ToList();
        return new Body(IlCode.Decode(block.GetILBytes(), regions), block.LocalSignature);
    });

    /// <summary>Runs a method's body (args: `this` first for instance methods) and returns what it returns.</summary>
    public object? Run(IlMethod method, object?[] args)
    {
        if (++_depth > MaxDepth) throw new IlRefusal($"nests calls deeper than {MaxDepth}");
        try
        {
            if (IlIntrinsics.TryCall(this, method, args, out object? result)) return result;
            IlPolicy.RefuseIfForbidden(method);
            if (method.IsStatic && method.Name != ".cctor" && !IsBeforeFieldInit(method.DeclaringType))
                _debuggee.RefuseBeforeStaticConstructor(method.DeclaringType, $"calls {method.DisplayName}");
            Body body = BodyOf(method);
            if (CallsItself(method, body.Code))  // a JIT intrinsic whose IL only stands in for what the JIT emits
                throw new IlRefusal($"relies on the JIT to implement {method.DisplayName}");
            IReadOnlyList<IlType> localTypes = body.Locals.IsNil ? [] : IlResolver.Reader(method.ModulePath)
                .GetStandaloneSignature(body.Locals).DecodeLocalSignature(new IlSignatures(resolver, method.ModulePath), method.Context);
            var locals = localTypes.Select(Default).ToArray();
            var frame = new Frame(method, body.Code, args, locals, localTypes);
            return Execute(frame, 0, false);
        }
        catch (IlRefusal refusal) when (refusal.Method is null)
        {
            refusal.Method = method.DisplayName;
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

    private static bool CallsItself(IlMethod method, IlCode code) =>
        IsJitIntrinsic(method) && code.Instructions.Any(i => (i.OpCode == OpCodes.Call || i.OpCode == OpCodes.Callvirt) && i.Operand is int token && token == method.Token);

    /// <summary>Marked [Intrinsic]: the JIT may replace its body (some bodies only call themselves).</summary>
    private static bool IsJitIntrinsic(IlMethod method)
    {
        var md = IlResolver.Reader(method.ModulePath);
        foreach (var handle in md.GetMethodDefinition(MetadataTokens.MethodDefinitionHandle(method.Token & 0xFFFFFF)).GetCustomAttributes())
        {
            var constructor = md.GetCustomAttribute(handle).Constructor;
            EntityHandle owner = constructor.Kind == HandleKind.MethodDefinition
                ? md.GetMethodDefinition((MethodDefinitionHandle)constructor).GetDeclaringType()
                : constructor.Kind == HandleKind.MemberReference ? md.GetMemberReference((MemberReferenceHandle)constructor).Parent : default;
            string? name = owner.Kind switch
            {
                HandleKind.TypeDefinition => md.GetString(md.GetTypeDefinition((TypeDefinitionHandle)owner).Name),
                HandleKind.TypeReference => md.GetString(md.GetTypeReference((TypeReferenceHandle)owner).Name),
                _ => null,
            };
            if (name == "IntrinsicAttribute") return true;
        }
        return false;
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

    private object? Execute(Frame f, int index, bool untilEndfinally)
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
            catch (IlThrown)
            {
                Unwind(f, instruction.Offset);
                throw;
            }
            switch (step.Kind)
            {
                case StepKind.Next: index++; break;
                case StepKind.Jump: index = f.Code.IndexOf(step.Target); break;
                case StepKind.Leave:
                    RunFinallies(f, instruction.Offset, step.Target);
                    f.Stack.Clear();
                    index = f.Code.IndexOf(step.Target);
                    break;
                case StepKind.EndFinally:
                    if (untilEndfinally) return null;
                    throw new IlRefusal("reached endfinally outside a finally block");
                case StepKind.Return:
                    return step.Value;
            }
        }
    }

    /// <summary>An exception leaving protected blocks: their finally blocks run (innermost first), then it goes on.
    /// A catch is refused: which handler runs, and what it does with the exception, is not modelled.</summary>
    private void Unwind(Frame f, int offset)
    {
        foreach (var region in f.Code.Regions)
        {
            if (offset < region.TryStart || offset >= region.TryEnd) continue;
            if (!region.IsFinally) throw new IlRefusal("catches an exception (try/catch is not interpreted)");
            f.Stack.Clear();
            Execute(f, f.Code.IndexOf(region.HandlerStart), true);
        }
    }

    private void RunFinallies(Frame f, int from, int to)
    {
        foreach (var region in f.Code.Regions)
        {
            if (!region.IsFinally) continue;
            bool inside = from >= region.TryStart && from < region.TryEnd;
            bool targetInside = to >= region.TryStart && to < region.TryEnd;
            if (inside && !targetInside) Execute(f, f.Code.IndexOf(region.HandlerStart), true);
        }
    }

    private enum StepKind { Next, Jump, Leave, EndFinally, Return }

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
