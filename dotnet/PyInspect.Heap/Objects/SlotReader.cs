using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>Reads and formats the value in a <see cref="Slot"/>: primitives from memory,
/// references by their object's own type, known structs by their real value.</summary>
internal sealed class SlotReader
{
    private readonly ClrHeap _heap;
    private readonly int _pointerSize;

    public SlotReader(ClrHeap heap, int pointerSize)
    {
        _heap = heap;
        _pointerSize = pointerSize;
        Memory = new WindowedMemory(heap.Runtime.DataTarget.DataReader);
    }

    public WindowedMemory Memory { get; }

    public int PointerSize => _pointerSize;

    public ClrHeap Heap => _heap;

    public ulong Pointer(ulong location) => Memory.ReadPointer(location);

    /// <summary>The object referenced from a slot (default when null).</summary>
    public ClrObject Target(Slot slot)
    {
        ulong address = Memory.ReadPointer(slot.Location);
        return address == 0 ? default : _heap.GetObject(address);
    }

    public ClrType? RuntimeType(ulong objectAddress) => _heap.GetObjectType(objectAddress);

    /// <summary>(value text, type name) as collection_analyze shows an element.</summary>
    public (string Value, string Type) Describe(Slot slot)
    {
        var memory = Memory.Reader;
        if (slot.IsReference)
        {
            ulong address = memory.ReadPointer(slot.Location);
            if (address == 0)
                return ("null", "null");
            var obj = _heap.GetObject(address);
            return (ValueFormatter.Reference(obj), TypeNames.Reflection(obj.Type?.Name));
        }
        string type = TypeNames.Reflection(slot.Type?.Name);
        if (ValueFormatter.PrimitiveSize(slot.Element, _pointerSize) > 0)
            return (ValueFormatter.Primitive(memory, slot.Element, slot.Location), type);
        return (KnownValues.TryFormat(memory, slot.Type, slot.Location) ?? "{" + type + "}", type);
    }
}
