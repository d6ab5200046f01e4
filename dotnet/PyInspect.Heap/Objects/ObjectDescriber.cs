using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Builds <see cref="ObjectRecord"/>s. Offsets count from the described object's address
/// (field address = object + pointer size + ClrInstanceField.Offset); embedded structs
/// are always expanded in place with offsets from the containing object; references
/// expand to a depth, with the objects on the current path tracked for cycles.
/// </summary>
internal sealed class ObjectDescriber
{
    private readonly ClrHeap _heap;
    private readonly IMemoryReader _memory;
    private readonly int _pointerSize;
    private readonly int _maxElements;
    private readonly HashSet<ulong> _path = new();
    private bool _circular;
    private bool _truncated;

    public ObjectDescriber(ClrHeap heap, int pointerSize, int maxElements)
    {
        _heap = heap;
        _memory = heap.Runtime.DataTarget.DataReader;
        _pointerSize = pointerSize;
        _maxElements = maxElements;
    }

    /// <summary>The valid object at address, or NOT_AN_OBJECT.</summary>
    public static ClrObject RequireObject(ClrHeap heap, ulong address)
    {
        ClrObject obj;
        try
        {
            obj = heap.GetSegmentByAddress(address) is null ? default : heap.GetObject(address);
        }
        catch (Exception exc)
        {
            throw new HeapTargetException("NOT_AN_OBJECT", $"no managed object at {HeapJson.Hex(address)}: {exc.Message}", exc);
        }
        if (obj.Address == 0 || obj.Type is null || obj.IsFree)
            throw new HeapTargetException("NOT_AN_OBJECT", $"no managed object at {HeapJson.Hex(address)}");
        return obj;
    }

    public ObjectRecord Describe(ClrObject obj, int depth)
    {
        var type = obj.Type!;
        var record = new ObjectRecord
        {
            Address = HeapJson.Hex(obj.Address),
            TypeName = TypeNames.Reflection(type.Name),
            Size = (long)obj.Size,
            Value = ValueFormatter.Reference(obj),
        };
        _path.Add(obj.Address);
        if (type.IsArray)
        {
            var dims = ValueFormatter.ArrayDimensions(obj);
            record.IsArray = true;
            record.ArrayLength = obj.AsArray().Length;
            record.Rank = dims.Length;
            record.Dimensions = dims;
            record.ElementTypeName = type.ComponentType is null ? null : TypeNames.Reflection(type.ComponentType.Name);
            record.Fields = Elements(obj, 0, Math.Min(_maxElements, record.ArrayLength.Value), depth);
            _truncated |= record.ArrayLength > record.Fields.Count;
        }
        else
        {
            if (type.IsString)
            {
                record.IsString = true;
                record.StringValue = obj.AsString(int.MaxValue);
            }
            record.Fields = Fields(type, obj.Address + (ulong)_pointerSize, obj.Address, depth);
        }
        _path.Remove(obj.Address);
        record.HasCircularRef = _circular;
        record.Truncated = _truncated;
        return record;
    }

    public List<FieldRecord> ArrayElements(ClrObject array, int start, int count)
    {
        int length = array.AsArray().Length;
        if (start < 0 || count < 0 || start > length)
            throw new HeapTargetException("INVALID_PARAMETER", $"elements [{start}, {start + count}) outside array of length {length}");
        return Elements(array, start, Math.Min(count, length - start), 1);
    }

    /// <summary>Instance fields of a type laid out from fieldsStart (just after the
    /// MethodTable pointer for objects, the struct's own address for embedded structs).</summary>
    private List<FieldRecord> Fields(ClrType type, ulong fieldsStart, ulong origin, int depth)
    {
        var result = new List<FieldRecord>();
        foreach (var field in type.Fields.OrderBy(f => f.Offset))
        {
            ulong location = fieldsStart + (ulong)field.Offset;
            string name = field.Name ?? "?";
            var record = Slot(ValueNames.Display(name), field.ElementType, field.Type, location, origin, depth);
            if (record.Name != name)
                record.FieldName = name;
            if (!record.IsValueType && !ValueFormatter.IsReference(field.ElementType) && record.Size == 0)
                record.Size = field.Size;
            result.Add(record);
        }
        return result;
    }

    private List<FieldRecord> Elements(ClrObject obj, int start, int count, int depth)
    {
        var type = obj.Type!;
        var dims = ValueFormatter.ArrayDimensions(obj);
        // Elements start after the MethodTable pointer, length and (multi-dim) bounds:
        // BaseSize counts those plus the object header, which sits before the address.
        ulong dataStart = obj.Address + (ulong)(type.StaticSize - _pointerSize);
        var elementType = type.ComponentType;
        var element = elementType?.ElementType ?? ClrElementType.Unknown;
        var result = new List<FieldRecord>(count);
        for (int i = start; i < start + count; i++)
        {
            ulong location = dataStart + (ulong)i * (ulong)type.ComponentSize;
            var record = Slot(ElementName(i, dims), element, elementType, location, obj.Address, depth);
            record.Size = type.ComponentSize;
            result.Add(record);
        }
        return result;
    }

    private static string ElementName(int flatIndex, int[] dims)
    {
        if (dims.Length == 1)
            return $"[{flatIndex}]";
        var indices = new int[dims.Length];
        for (int d = dims.Length - 1; d >= 0; d--)
        {
            indices[d] = dims[d] == 0 ? 0 : flatIndex % dims[d];
            flatIndex = dims[d] == 0 ? 0 : flatIndex / dims[d];
        }
        return "[" + string.Join(", ", indices) + "]";
    }

    /// <summary>One field or element stored at an absolute location.</summary>
    private FieldRecord Slot(string name, ClrElementType element, ClrType? type, ulong location, ulong origin, int depth)
    {
        if (element == ClrElementType.Struct && type is { IsEnum: true })
            element = type.AsEnum().ElementType;
        var record = new FieldRecord
        {
            Name = name,
            TypeName = TypeNames.Reflection(type?.Name),
            Offset = checked((int)(location - origin)),
        };
        if (ValueFormatter.IsReference(element))
            Reference(record, location, depth);
        else if (ValueFormatter.PrimitiveSize(element, _pointerSize) is int size and > 0)
        {
            record.Size = size;
            record.Value = type is { IsEnum: true } && ValueNames.Enum(_memory, type, location) is { } member
                ? member : ValueFormatter.Primitive(_memory, element, location);
        }
        else
        {
            EmbeddedStruct(record, type, location, origin, depth);
            if (ValueNames.IsNullable(type) && ValueNames.Text(_memory, type, location, out bool isNull) is { } text)
            {
                record.Value = text;
                record.IsNull = isNull;
            }
        }
        return record;
    }

    private void Reference(FieldRecord record, ulong location, int depth)
    {
        record.Size = _pointerSize;
        ulong target = _memory.ReadPointer(location);
        if (target == 0)
        {
            record.IsNull = true;
            record.Value = "null";
            return;
        }
        var obj = _heap.GetObject(target);
        record.Address = HeapJson.Hex(target);
        record.HasChildren = true;
        record.Value = obj.Type is null ? "{?}" : ValueFormatter.Reference(obj);
        if (obj.Type is not null && record.TypeName == "?")
            record.TypeName = TypeNames.Reflection(obj.Type.Name);
        if (_path.Contains(target))
        {
            record.IsCircularRef = true;
            _circular = true;
            return;
        }
        if (depth <= 1 || obj.Type is null)
        {
            _truncated |= obj.Type is not null;
            return;
        }
        record.Fields = Expand(obj, depth - 1);
    }

    private List<FieldRecord> Expand(ClrObject obj, int depth)
    {
        _path.Add(obj.Address);
        try
        {
            var type = obj.Type!;
            if (type.IsArray)
            {
                int length = obj.AsArray().Length;
                int shown = Math.Min(_maxElements, length);
                _truncated |= shown < length;
                return Elements(obj, 0, shown, depth);
            }
            return Fields(type, obj.Address + (ulong)_pointerSize, obj.Address, depth);
        }
        finally
        {
            _path.Remove(obj.Address);
        }
    }

    private void EmbeddedStruct(FieldRecord record, ClrType? type, ulong location, ulong origin, int depth)
    {
        record.IsValueType = true;
        record.Value = KnownValues.TryFormat(_memory, type, location) ?? "{" + TypeNames.Reflection(type?.Name) + "}";
        if (type is null)
            return;
        record.Size = type.StaticSize - 2 * _pointerSize;
        record.Fields = Fields(type, location, origin, depth);
        record.HasChildren = record.Fields.Count > 0;
    }
}
