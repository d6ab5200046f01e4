// One member read in a compiled lambda (`o.Total`), run once per element: per runtime type
// (its MethodTable), where the field sits in the object and how to decode it is learnt once
// through ICorDebug; after that each element's field is read straight from the debuggee's
// memory, a 64 KB block at a time. Anything else (getters, reference fields, structs, values
// that are not objects) takes the interpreter's own member read.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;

namespace PyInspect.Debugger.Evaluation.Linq;

public sealed class FieldReadSite(Interpreter interpreter, string name, string ownerText)
{
    /// <summary>Where a primitive or decimal field sits in objects of one type, and its decoder.</summary>
    private sealed record Layout(int Offset, int Size, Func<byte[], object?> Decode);

    private readonly Dictionary<ulong, Layout?> _layouts = [];
    private MemoryBlocks? _memory;
    private int _generation = EvalContext.Generation;

    public object? Read(object? target)
    {
        if (target is RemoteValue remote && interpreter.Context.ReadMemory is { } read && AddressOf(remote) is ulong address)
        {
            if (_memory is null || _generation != EvalContext.Generation)
            {
                // A func-eval ran: objects may have moved and fields changed.
                _memory = new MemoryBlocks(read);
                _layouts.Clear();
                _generation = EvalContext.Generation;
            }
            if (_memory.Read(address, 8) is { } header)
            {
                ulong methodTable = BitConverter.ToUInt64(header);
                if (!_layouts.TryGetValue(methodTable, out Layout? layout)) _layouts[methodTable] = layout = Learn(remote.Value, address);
                if (layout is not null && _memory.Read(address + (ulong)layout.Offset, layout.Size) is { } raw) return layout.Decode(raw);
            }
        }
        return interpreter.Member(target, name, ownerText);
    }

    /// <summary>The object's address: as read in bulk, or from its reference (null for structs and null).</summary>
    private static ulong? AddressOf(RemoteValue remote) =>
        remote.ObjectAddress ?? (remote.Value is ICorDebugReferenceValue reference && reference.GetValue(out ulong address) >= 0
            && address != 0 ? address : null);

    /// <summary>The field (or auto-property backing field) named, if it is an instance field of a
    /// primitive type or decimal; null sends this type's reads down the interpreter's path.</summary>
    private Layout? Learn(ICorDebugValue value, ulong objectAddress)
    {
        if (ValuePath.Dereference(value) is not ICorDebugObjectValue obj || obj is not ICorDebugValue2 typed || typed.GetExactType(out var type) < 0)
            return null;
        foreach (var (_, cls, md, token) in Members.Levels(type))
        {
            if (md.Properties(token).Any(p => p.Name == name) && !md.Fields(token).Any(f => ModuleMetadata.FieldDisplayName(f.Name) == name))
                return null;  // a computed property: its getter must run
            foreach (var field in md.Fields(token))
            {
                if (field.Name != name && ModuleMetadata.FieldDisplayName(field.Name) != name) continue;
                if (field.IsStatic || field.IsLiteral || obj.GetFieldValue(cls, field.Token, out var fieldValue) < 0) return null;
                if (fieldValue.GetAddress(out ulong fieldAddress) < 0 || fieldAddress <= objectAddress) return null;
                int offset = (int)(fieldAddress - objectAddress);
                if (fieldValue.GetType(out int elementType) < 0) return null;
                if (EvalValues.PrimitiveSize(elementType) is int size)
                    return new Layout(offset, size, raw => EvalValues.FromBytes(elementType, raw));
                return EvalValues.FromDebuggee(fieldValue) is decimal ? new Layout(offset, 16, EvalValues.ReadDecimalBoxed) : null;
            }
        }
        return null;
    }
}

/// <summary>The debuggee's memory read in aligned 64 KB blocks, kept for one compiled lambda's
/// run (objects allocated together share blocks); a range the blocks cannot serve is read alone.</summary>
public sealed class MemoryBlocks(Func<ulong, byte[], int> read)
{
    private const int BlockSize = 65536;
    private readonly Dictionary<ulong, byte[]?> _blocks = [];

    public byte[]? Read(ulong address, int size)
    {
        ulong start = address & ~(ulong)(BlockSize - 1);
        int at = (int)(address - start);
        if (at + size <= BlockSize && Block(start) is { } block) return block.AsSpan(at, size).ToArray();
        var exact = new byte[size];
        return read(address, exact) == size ? exact : null;
    }

    private byte[]? Block(ulong start)
    {
        if (_blocks.TryGetValue(start, out byte[]? block)) return block;
        if (_blocks.Count > 4096) _blocks.Clear();  // 256 MB at most
        block = new byte[BlockSize];
        return _blocks[start] = read(start, block) == BlockSize ? block : null;
    }
}
