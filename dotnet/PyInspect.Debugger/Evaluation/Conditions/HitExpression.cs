// A breakpoint condition or a log point's {hole}: parsed once when the breakpoint is set and
// bound, at the first hit of each compiled method, to the stack slots and object fields it
// reads. Later hits read those from memory: the thread's stack pointer (the context the
// runtime saved when it stopped), the slot at its learned offset from it, a field at its
// learned offset in an object of a known method table. No ICorDebug frame is made, because
// making one costs a stack refresh (the profiled ~2.5 ms of every conditional hit). A property
// of an object read this way runs its getter in the IL interpreter with no frame either
// (BoundGetter). What the bound form does not cover (calls, LINQ, casts, patterns...) is
// evaluated by the Interpreter from the same parsed syntax, with the same meaning.
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;

namespace PyInspect.Debugger.Evaluation.Conditions;

/// <summary>Reads debuggee memory at an address into a span: the bytes read.</summary>
public delegate int MemoryReader(ulong address, Span<byte> into);

/// <summary>Where a breakpoint hit: the thread, the binding's method and IL offset, its
/// registers and memory, objects by address, and (made only when needed, it is the slow part) its IL frame.</summary>
public sealed class HitSite(int processId, uint threadId, ModuleCatalog modules, LoadedModule module, int methodToken, int ilOffset,
    ulong stackPointer, ulong instructionPointer, MemoryReader readMemory, Func<ulong, ICorDebugObjectValue?> objectAt,
    Func<ICorDebugILFrame?> frame)
{
    /// <summary>Learned places are the process's own (addresses mean nothing in another).</summary>
    public int ProcessId { get; } = processId;
    public uint ThreadId { get; } = threadId;
    /// <summary>The debuggee's modules (what the IL interpreter resolves against).</summary>
    public ModuleCatalog Modules { get; } = modules;
    private ICorDebugILFrame? _frame;
    private bool _frameMade;

    public LoadedModule Module { get; } = module;
    public int MethodToken { get; } = methodToken;
    public int IlOffset { get; } = ilOffset;
    /// <summary>0 when the registers could not be read (then every hit reads through the frame).</summary>
    public ulong StackPointer { get; } = stackPointer;
    public ulong InstructionPointer { get; } = instructionPointer;

    public ICorDebugILFrame? Frame
    {
        get
        {
            if (!_frameMade)
            {
                long started = HitProfile.Start();
                (_frame, _frameMade) = (frame(), true);
                HitProfile.Add("site: active frame made (GetActiveFrame)", started);
            }
            return _frame;
        }
    }

    public bool Read(ulong address, Span<byte> into) => address != 0 && readMemory(address, into) == into.Length;

    /// <summary>The object at an address as an ICorDebug value, made without a frame; null if it is none.</summary>
    public ICorDebugObjectValue? ObjectAt(ulong address) => address == 0 ? null : objectAt(address);

    /// <summary>A context for the IL interpreter on this hit's thread with no ICorDebug frame (no func-eval either).</summary>
    public EvalContext Frameless() => EvalContext.Frameless(ThreadId, Module, Modules, (address, into) => readMemory(address, into));
}

public sealed class HitExpression
{
    private readonly BoundNode? _bound;

    private HitExpression(string text, ExpressionSyntax syntax)
    {
        Text = text;
        Syntax = syntax;
        _bound = BoundNode.Compile(syntax);
    }

    public string Text { get; }
    public ExpressionSyntax Syntax { get; }

    /// <summary>Parsed now; a syntax error throws EvalException with Roslyn's message.</summary>
    public static HitExpression Parse(string text) => new(text, Interpreter.Parse(Interpreter.SpellException(text)));

    /// <summary>The value at a hit (a local value, or a RemoteValue for an object): from memory
    /// where this code's slots and fields are learned, else through the frame (learning them),
    /// else by the Interpreter in `slow`'s context.</summary>
    public object? Evaluate(HitSite? site, Func<EvalContext> slow)
    {
        if (_bound is not null && site is not null)
        {
            long started = HitProfile.Start();
            if (site.StackPointer != 0 && _bound.TryRead(new BoundReads(site, fromMemory: true), out object? fast) && fast is not MemoryRef)
                return fast;
            HitProfile.Add("bound: from memory (missed)", started);
            started = HitProfile.Start();
            if (site.Frame is not null && _bound.TryRead(new BoundReads(site, fromMemory: false), out object? value)) return value;
            HitProfile.Add("bound: through the frame (missed)", started);
        }
        long made = HitProfile.Start();
        using EvalContext context = slow();
        HitProfile.Add("slow: top frame + EvalContext", made);
        long evaluated = HitProfile.Start();
        try
        {
            return EvalValues.Local(Interpreter.Evaluate(Syntax, context));
        }
        finally
        {
            HitProfile.Add("slow: Interpreter.Evaluate (name, member, IL run)", evaluated);
        }
    }
}

/// <summary>A debuggee object read from memory: its address (never 0).</summary>
internal sealed record MemoryRef(ulong Address);

/// <summary>How a value sits in memory: a primitive of an element type, a decimal, a string or
/// another object reference (8 bytes); null for what is not read this way (structs, enums...).</summary>
internal sealed record MemoryKind(int ElementType, int Size)
{
    private const int DecimalType = -1;

    public static MemoryKind? Of(ICorDebugValue value)
    {
        if (value.GetType(out int elementType) < 0) return null;
        if (elementType is CorElementType.Class or CorElementType.Object or CorElementType.String)
            return new MemoryKind(elementType, 8);
        if (EvalValues.PrimitiveSize(elementType) is int size) return new MemoryKind(elementType, size);
        if (elementType == CorElementType.ValueType && value is ICorDebugValue2 typed && typed.GetExactType(out var type) >= 0
            && TypeNames.Format(type) == "decimal")
            return new MemoryKind(DecimalType, 16);
        return null;
    }

    /// <summary>The value at `address`: a local value, null, or a MemoryRef for an object.</summary>
    public bool TryRead(HitSite site, ulong address, out object? value)
    {
        value = null;
        Span<byte> raw = stackalloc byte[Size];
        if (!site.Read(address, raw)) return false;
        if (ElementType == DecimalType)
        {
            value = EvalValues.ReadDecimal(raw.ToArray());
            return true;
        }
        if (Size == 8 && ElementType is CorElementType.Class or CorElementType.Object or CorElementType.String)
        {
            ulong target = BitConverter.ToUInt64(raw);
            if (target == 0) return true;
            if (ElementType != CorElementType.String)
            {
                value = new MemoryRef(target);
                return true;
            }
            return ReadString(site, target, out value);
        }
        value = EvalValues.FromBytes(ElementType, raw);
        return value is not null;
    }

    /// <summary>A string object: its length (int at +8) and UTF-16 characters (from +12).</summary>
    private static bool ReadString(HitSite site, ulong address, out object? value)
    {
        value = null;
        Span<byte> header = stackalloc byte[4];
        if (!site.Read(address + 8, header)) return false;
        int length = BitConverter.ToInt32(header);
        if (length < 0 || length > 1 << 20) return false;
        byte[] chars = new byte[length * 2];
        if (length > 0 && !site.Read(address + 12, chars)) return false;
        value = System.Text.Encoding.Unicode.GetString(chars);
        return true;
    }
}

/// <summary>One hit's reads: from memory only, or through the frame (learning where things sit).</summary>
internal sealed class BoundReads(HitSite site, bool fromMemory)
{
    public HitSite Site { get; } = site;
    public bool FromMemory { get; } = fromMemory;
    private MethodSlots? _slots;
    public MethodSlots Slots => _slots ??= MethodSlots.Of(Site);
}

/// <summary>Where a method's names live at an IL offset: local slot, argument index, or neither.</summary>
internal sealed class MethodSlots
{
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<(string, int, int), MethodSlots> Cache = new();

    private readonly Dictionary<string, (bool IsLocal, uint Index)> _names = new(StringComparer.Ordinal);

    /// <summary>False in compiler-generated methods (state machines, lambdas, captured locals): their names live in objects.</summary>
    public bool Plain { get; }
    public bool IsStatic { get; }

    private MethodSlots(HitSite site)
    {
        ModuleMetadata? metadata = site.Module.Metadata;
        var locals = site.Module.Symbols?.GetLocals(site.MethodToken, site.IlOffset) ?? [];
        Plain = metadata is not null && !metadata.GetMethodDisplayName(site.MethodToken).Contains('>', StringComparison.Ordinal)
            && !locals.Any(l => l.Name.StartsWith("CS$<>8__locals", StringComparison.Ordinal));
        if (metadata is null) return;
        IsStatic = metadata.IsStatic(site.MethodToken);
        var parameters = metadata.GetParameterNames(site.MethodToken);
        for (int i = 0; i < parameters.Count; i++) _names[parameters[i]] = (false, (uint)(IsStatic ? i : i + 1));
        foreach (var local in locals) _names[local.Name] = (true, (uint)local.SlotIndex);
    }

    public static MethodSlots Of(HitSite site) =>
        Cache.GetOrAdd((site.Module.Path, site.MethodToken, site.IlOffset), _ => new MethodSlots(site));

    public bool TryFind(string name, out (bool IsLocal, uint Index) slot) => _names.TryGetValue(name, out slot);
}

/// <summary>The bound form of an expression: literals, names, field reads and operators.
/// TryRead answers false where this hit needs more (then the next way is tried).</summary>
internal abstract class BoundNode
{
    public abstract bool TryRead(BoundReads reads, out object? value);

    /// <summary>The bound form, or null when the syntax has anything else in it.</summary>
    public static BoundNode? Compile(ExpressionSyntax syntax) => syntax switch
    {
        ParenthesizedExpressionSyntax p => Compile(p.Expression),
        LiteralExpressionSyntax literal => new Constant(literal.Kind() switch
        {
            SyntaxKind.NullLiteralExpression or SyntaxKind.DefaultLiteralExpression => null,
            SyntaxKind.TrueLiteralExpression => true,
            SyntaxKind.FalseLiteralExpression => false,
            _ => literal.Token.Value,
        }),
        IdentifierNameSyntax name => new Name(name.Identifier.ValueText),
        ThisExpressionSyntax => new Slot("this"),
        MemberAccessExpressionSyntax { RawKind: (int)SyntaxKind.SimpleMemberAccessExpression, Name: IdentifierNameSyntax member } access
            when Compile(access.Expression) is { } target => new Field(target, member.Identifier.ValueText),
        BinaryExpressionSyntax binary when Compile(binary.Left) is { } left && Compile(binary.Right) is { } right
            && binary.Kind() is not (SyntaxKind.IsExpression or SyntaxKind.AsExpression or SyntaxKind.CoalesceExpression)
            => new Binary(binary.Kind(), left, right, binary.ToString()),
        PrefixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.LogicalNotExpression or (int)SyntaxKind.UnaryMinusExpression } unary
            when Compile(unary.Operand) is { } operand => new Unary(unary.Kind(), operand, unary.ToString()),
        _ => null,
    };

    /// <summary>A value read through ICorDebug as the bound form uses it: local, or remote for an object.</summary>
    protected static object? Local(ICorDebugValue value) => EvalValues.FromDebuggee(value);

    private sealed class Constant(object? constant) : BoundNode
    {
        public override bool TryRead(BoundReads reads, out object? value)
        {
            value = constant;
            return true;
        }
    }

    /// <summary>A local or an argument (or `this`), read from the frame; its stack home
    /// learned per compiled code (by instruction pointer) as an offset from the stack pointer.</summary>
    private sealed class Slot(string name) : BoundNode
    {
        private static readonly System.Collections.Concurrent.ConcurrentDictionary<(int Process, ulong Ip, string Name), (long Offset, MemoryKind Kind)?> Homes = new();

        /// <summary>Whether the method has this name (a local, an argument, or `this` in an instance method).</summary>
        public static bool Exists(BoundReads reads, string name) =>
            reads.Slots.Plain && (name == "this" ? !reads.Slots.IsStatic : reads.Slots.TryFind(name, out _));

        public override bool TryRead(BoundReads reads, out object? value)
        {
            value = null;
            HitSite site = reads.Site;
            if (reads.FromMemory)
                return Homes.TryGetValue((site.ProcessId, site.InstructionPointer, name), out var home) && home is { } known
                    && known.Kind.TryRead(site, site.StackPointer + (ulong)known.Offset, out value);
            if (!Exists(reads, name) || site.Frame is not { } frame) return false;
            ICorDebugValue read;
            int hr = name == "this" ? frame.GetArgument(0, out read)
                : reads.Slots.TryFind(name, out var slot) && slot.IsLocal ? frame.GetLocalVariable(slot.Index, out read)
                : frame.GetArgument(slot.Index, out read);
            if (hr < 0) return false;
            // Learned only where the saved stack pointer is this frame's own (its stack range starts there).
            if (site.StackPointer != 0 && frame.GetStackRange(out ulong low, out _) >= 0 && low == site.StackPointer)
                Homes.TryAdd((site.ProcessId, site.InstructionPointer, name), HomeOf(read, site.StackPointer));
            value = name == "this" ? new RemoteValue(read) : Local(read);
            return true;
        }

        /// <summary>Where the slot sits relative to the stack pointer, if on the stack (else it is read through the frame).</summary>
        private static (long, MemoryKind)? HomeOf(ICorDebugValue value, ulong stackPointer)
        {
            if (value.GetAddress(out ulong address) < 0 || address < stackPointer || address - stackPointer > 1 << 20) return null;
            return MemoryKind.Of(value) is { } kind ? ((long)(address - stackPointer), kind) : null;
        }
    }

    /// <summary>A local, an argument, or (not one of those) a field of `this`.</summary>
    private sealed class Name(string name) : BoundNode
    {
        private readonly Slot _slot = new(name);
        private readonly Field _ofThis = new(new Slot("this"), name);

        public override bool TryRead(BoundReads reads, out object? value)
        {
            value = null;
            if (!reads.FromMemory && !reads.Slots.Plain) return false;
            return _slot.TryRead(reads, out value)
                || (!Slot.Exists(reads, name) && name != "this" && _ofThis.TryRead(reads, out value));
        }
    }

    /// <summary>An instance field (an auto-property through its backing field) of an object,
    /// its offset and kind learned per method table and kept; or a property, its getter run by BoundGetter.</summary>
    private sealed class Field(BoundNode target, string name) : BoundNode
    {
        private static readonly System.Collections.Concurrent.ConcurrentDictionary<(int Process, ulong MethodTable, string Name), (ulong Offset, MemoryKind Kind)?> Offsets = new();
        private static readonly System.Collections.Concurrent.ConcurrentDictionary<(int Process, ulong Module, int Token, string Name), (ICorDebugClass Class, int Field)?> Places = new();

        public override bool TryRead(BoundReads reads, out object? value)
        {
            value = null;
            if (!target.TryRead(reads, out object? owner)) return false;
            HitSite site = reads.Site;
            if (owner is MemoryRef memory) return FromMemory(site, memory.Address, out value);
            if (owner is not RemoteValue remote) return false;
            ICorDebugValue? referent = ValuePath.Dereference(remote.Value);
            if (referent is not ICorDebugObjectValue obj || referent is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0)
                return false;
            if (type.GetClass(out var cls) < 0 || cls.GetToken(out int token) < 0 || cls.GetModule(out var module) < 0
                || module.GetBaseAddress(out ulong moduleBase) < 0)
                return false;
            if (Places.GetOrAdd((site.ProcessId, moduleBase, token, name), _ => Find(type)) is not { } found)
                return ObjectAddress(referent) is ulong address && FromMemory(site, address, out value);  // a getter, if any
            if (obj.GetFieldValue(found.Class, found.Field, out var field) < 0) return false;
            Learn(site, referent, field);
            value = Local(field);
            return true;
        }

        /// <summary>The field at its offset learned for the object's method table; with none learned there, the
        /// property's getter interpreted on the object (BoundGetter: learned per method table, no frame).</summary>
        private bool FromMemory(HitSite site, ulong address, out object? value)
        {
            value = null;
            Span<byte> header = stackalloc byte[8];
            if (!site.Read(address, header)) return false;
            ulong methodTable = BitConverter.ToUInt64(header);
            if (Offsets.TryGetValue((site.ProcessId, methodTable, name), out var place))
                return place is { } known && known.Kind.TryRead(site, address + known.Offset, out value);
            return BoundGetter.TryRead(site, address, methodTable, name, out value);
        }

        /// <summary>A class instance's address (its method table first); null for structs, boxes and the rest.</summary>
        private static ulong? ObjectAddress(ICorDebugValue referent) =>
            referent.GetType(out int elementType) >= 0 && elementType == CorElementType.Class && referent is not ICorDebugBoxValue
                && referent.GetAddress(out ulong address) >= 0 && address != 0 ? address : null;

        /// <summary>The field's offset in objects of this method table, for reads from memory at later hits.</summary>
        private void Learn(HitSite site, ICorDebugValue referent, ICorDebugValue field)
        {
            Span<byte> methodTable = stackalloc byte[8];
            if (referent.GetAddress(out ulong objectAddress) < 0 || field.GetAddress(out ulong fieldAddress) < 0
                || fieldAddress <= objectAddress || !site.Read(objectAddress, methodTable))
                return;
            Offsets.TryAdd((site.ProcessId, BitConverter.ToUInt64(methodTable), name),
                MemoryKind.Of(field) is { } kind ? (fieldAddress - objectAddress, kind) : null);
        }

        private (ICorDebugClass, int)? Find(ICorDebugType type)
        {
            foreach (var (_, cls, md, token) in Members.Levels(type))
            {
                if (md.GetTypeName(token).Contains('`', StringComparison.Ordinal)) return null;  // generic: fields per instantiation
                foreach (var field in md.Fields(token))
                    if (!field.IsStatic && !field.IsLiteral && (field.Name == name || ModuleMetadata.FieldDisplayName(field.Name) == name))
                        return (cls, field.Token);
                if (md.Properties(token).Any(p => p.Name == name)) return null;
            }
            return null;
        }
    }

    private sealed class Binary(SyntaxKind kind, BoundNode left, BoundNode right, string text) : BoundNode
    {
        public override bool TryRead(BoundReads reads, out object? value)
        {
            value = null;
            if (!left.TryRead(reads, out object? l) || IsObject(l)) return false;
            if (kind is SyntaxKind.LogicalAndExpression or SyntaxKind.LogicalOrExpression)
            {
                bool first = Operators.Truth(l, text);
                if (first == (kind == SyntaxKind.LogicalOrExpression))
                {
                    value = first;
                    return true;
                }
                if (!right.TryRead(reads, out object? second) || IsObject(second)) return false;
                value = Operators.Truth(second, text);
                return true;
            }
            if (!right.TryRead(reads, out object? r) || IsObject(r)) return false;
            value = Operators.Binary(kind, l, r, text);  // objects (reference equality, operators) are the Interpreter's
            return true;
        }
    }

    private static bool IsObject(object? value) => value is RemoteValue or MemoryRef;

    private sealed class Unary(SyntaxKind kind, BoundNode operand, string text) : BoundNode
    {
        public override bool TryRead(BoundReads reads, out object? value)
        {
            value = null;
            if (!operand.TryRead(reads, out object? read) || IsObject(read)) return false;
            value = Operators.Unary(kind, read, text);
            return true;
        }
    }
}
