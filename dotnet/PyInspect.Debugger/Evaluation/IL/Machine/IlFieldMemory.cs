// Instance fields of a primitive or decimal type read straight from debuggee memory at their
// offset, learned once per method table from ICorDebug's own answer (the address of the value
// GetFieldValue gave). A breakpoint condition's getter reads its fields this way: the
// ICorDebug read costs several times two small memory reads. Used only where no func-eval can
// run in the evaluation (the process stays stopped, so no object moves under a learned address).
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public sealed class IlFieldMemory(EvalContext context)
{
    /// <summary>Per debuggee (method tables are its addresses): a field's offset in objects of a method table.</summary>
    private static readonly ConditionalWeakTable<ModuleCatalog, ConcurrentDictionary<(ulong MethodTable, string Module, int Field), ulong>> Offsets = new();

    private readonly ConcurrentDictionary<(ulong, string, int), ulong>? _offsets =
        context.Calls is null && context.ReadMemory is not null ? Offsets.GetValue(context.Modules, _ => new()) : null;

    /// <summary>The field's value read from memory, if its offset is known for the object's method table.</summary>
    public bool TryRead(DebuggeeObject obj, IlField field, out object? value)
    {
        value = null;
        if (_offsets is null || Layout(field.FieldType) is not { } layout || MethodTable(obj) is not { } header
            || !_offsets.TryGetValue((header.MethodTable, field.DeclaringType.ModulePath, field.Token), out ulong offset))
            return false;
        byte[] raw = new byte[layout.Size];
        if (context.ReadMemory!(header.Address + offset, raw) != layout.Size) return false;
        value = layout.ElementType == CorElementType.ValueType ? EvalValues.ReadDecimal(raw)
            : IlValue.ToStack(EvalValues.FromBytes(layout.ElementType, raw));
        return true;
    }

    /// <summary>Remembers where ICorDebug found the field's value inside the object, for the next reads.</summary>
    public void Learn(DebuggeeObject obj, IlField field, ICorDebugValue read)
    {
        if (_offsets is null || Layout(field.FieldType) is null || MethodTable(obj) is not { } header
            || read.GetAddress(out ulong at) < 0 || at <= header.Address || at - header.Address > 1 << 20)
            return;
        _offsets.TryAdd((header.MethodTable, field.DeclaringType.ModulePath, field.Token), at - header.Address);
    }

    /// <summary>How a field of this type sits in memory: a primitive's element type and size, or a decimal (ValueType, 16).</summary>
    private static (int ElementType, int Size)? Layout(IlType type) => type switch
    {
        IlPrimitive { ElementType: var e } when EvalValues.PrimitiveSize(e) is int size => (e, size),
        IlNamed { Name: "System.Decimal" } => (CorElementType.ValueType, 16),
        _ => null,
    };

    private (ulong Address, ulong MethodTable)? MethodTable(DebuggeeObject obj)
    {
        ulong address = obj.IsBox ? 0 : obj.Address;
        if (address == 0) return null;
        byte[] header = new byte[8];
        return context.ReadMemory!(address, header) == 8 ? (address, BitConverter.ToUInt64(header)) : null;
    }
}
