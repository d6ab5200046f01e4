using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// object_summarize from the heap: every instance field's real value (decimal, DateTime,
/// Guid... read as values, not "{Type}"), collection fields with their count and element
/// type, null fields, and the values that usually mean a bug. A field whose memory cannot
/// be read is counted as inaccessible rather than guessed.
/// </summary>
public sealed class ObjectSummarizer
{
    private readonly ClrHeap _heap;
    private readonly IMemoryReader _memory;
    private readonly int _pointerSize;
    private readonly CollectionReader _collections;

    public ObjectSummarizer(ClrHeap heap, int pointerSize)
    {
        _heap = heap;
        _memory = heap.Runtime.DataTarget.DataReader;
        _pointerSize = pointerSize;
        _collections = new CollectionReader(heap, pointerSize);
    }

    public SummaryRecord Summarize(ulong address, int maxPreviewItems)
    {
        if (maxPreviewItems < 1 || maxPreviewItems > CollectionReader.MaxPreview)
            throw new HeapTargetException("INVALID_PARAMETER", $"max_preview_items must be 1-{CollectionReader.MaxPreview}, got {maxPreviewItems}");
        var obj = ObjectDescriber.RequireObject(_heap, address);
        var type = obj.Type!;
        var summary = new SummaryRecord
        {
            Address = HeapJson.Hex(obj.Address),
            TypeName = TypeNames.Reflection(type.Name),
            Size = (long)obj.Size,
        };
        ulong fieldsStart = obj.IsBoxedValue || !type.IsValueType ? obj.Address + (ulong)_pointerSize : obj.Address;
        foreach (var field in type.Fields.OrderBy(f => f.Offset))
        {
            summary.TotalFieldCount++;
            SummaryFieldRecord record;
            try
            {
                record = Field(field, Slot.OfField(fieldsStart, field), summary, maxPreviewItems);
            }
            catch (Exception exc) when (exc is not OutOfMemoryException)
            {
                summary.InaccessibleFieldCount++;
                record = new SummaryFieldRecord { Name = ValueNames.Display(field.Name ?? "?"), Type = TypeNames.Reflection(field.Type?.Name), Value = "<unreadable>" };
            }
            summary.Fields.Add(record);
        }
        return summary;
    }

    private SummaryFieldRecord Field(ClrInstanceField field, Slot slot, SummaryRecord summary, int maxPreviewItems)
    {
        var record = new SummaryFieldRecord { Name = ValueNames.Display(field.Name ?? "?"), Type = TypeNames.Reflection(field.Type?.Name) };
        if (slot.IsReference)
            Reference(record, slot, summary, maxPreviewItems);
        else if (ValueNames.Text(_memory, slot.Type, slot.Location, out bool isNull) is { } text)
        {
            record.Value = text;
            if (isNull)
                summary.NullFields.Add(record.Name);
        }
        else if (ValueFormatter.PrimitiveSize(slot.Element, _pointerSize) > 0)
        {
            record.Value = ValueFormatter.Primitive(_memory, slot.Element, slot.Location);
            if (slot.Element is ClrElementType.Float or ClrElementType.Double)
                FloatReason(record, summary, slot.Element == ClrElementType.Float
                    ? _memory.Read<float>(slot.Location) : _memory.Read<double>(slot.Location));
        }
        else if (slot.Type is not null && KnownValues.Read(_memory, slot.Type, slot.Location) is { } value)
        {
            record.Value = KnownValues.Format(value);
            if (KnownValues.IsDefaultDate(value))
                Interesting(summary, record, "default_datetime");
            else if (value is Guid guid && guid == Guid.Empty)
                Interesting(summary, record, "default_guid");
        }
        else
            record.Value = "{" + record.Type + "}";
        return record;
    }

    private void Reference(SummaryFieldRecord record, Slot slot, SummaryRecord summary, int maxPreviewItems)
    {
        ulong target = _memory.ReadPointer(slot.Location);
        if (target == 0)
        {
            record.Value = "null";
            summary.NullFields.Add(record.Name);
            return;
        }
        var obj = _heap.GetObject(target);
        if (obj.Type is null)
            throw new HeapTargetException("HEAP_READ_ERROR", $"no object at {HeapJson.Hex(target)}");
        if (record.Type is "?" or "System.__Canon")
            record.Type = TypeNames.Reflection(obj.Type.Name);
        record.Value = ValueFormatter.Reference(obj);
        if (obj.Type.IsString && record.Value == "\"\"")
            Interesting(summary, record, "empty_string");
        else if (_collections.Shape(obj) is { } shape)
        {
            record.CollectionCount = shape.Count;
            record.CollectionElementType = shape.ElementType;
            record.CollectionPreview = Preview(obj, shape, maxPreviewItems);
            if (!obj.Type.IsArray)
                record.Value = TypeNames.Short(TypeNames.Reflection(obj.Type.Name)) + "[" + shape.Count + "]";
        }
    }

    /// <summary>A preview that cannot be read is left out; the field's count still stands.</summary>
    private List<string>? Preview(ClrObject obj, CollectionShape shape, int maxPreviewItems)
    {
        try
        {
            return _collections.Preview(obj, shape, maxPreviewItems);
        }
        catch (Exception exc) when (exc is not OutOfMemoryException)
        {
            return null;
        }
    }

    private static void FloatReason(SummaryFieldRecord record, SummaryRecord summary, double value)
    {
        if (double.IsNaN(value))
            Interesting(summary, record, "nan");
        else if (double.IsInfinity(value))
            Interesting(summary, record, "infinity");
    }

    private static void Interesting(SummaryRecord summary, SummaryFieldRecord record, string reason) =>
        summary.InterestingFields.Add(new InterestingFieldRecord { Name = record.Name, Type = record.Type, Value = record.Value, Reason = reason });
}
