using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// collection_analyze from the heap: recognises the collection, walks every element once
/// within a time budget and returns the whole analysis as one record.
/// </summary>
public sealed class CollectionReader
{
    public const int MaxPreview = 50;
    private readonly SlotReader _reader;

    public CollectionReader(ClrHeap heap, int pointerSize)
    {
        _reader = new SlotReader(heap, pointerSize);
    }

    public CollectionRecord Analyze(ulong address, int maxPreviewItems, int timeoutMs)
    {
        if (maxPreviewItems < 1 || maxPreviewItems > MaxPreview)
            throw new HeapTargetException("INVALID_PARAMETER", $"max_preview_items must be 1-{MaxPreview}, got {maxPreviewItems}");
        if (timeoutMs < 1)
            throw new HeapTargetException("INVALID_PARAMETER", $"timeout_ms must be positive, got {timeoutMs}");
        var obj = ObjectDescriber.RequireObject(_reader.Heap, address);
        try
        {
            var shape = CollectionShape.Of(obj, _reader) ?? throw NotCollection(obj);
            var stats = shape.IsPairs ? null : NumericStats.For(shape.ElementType);
            var record = new CollectionRecord
            {
                Address = HeapJson.Hex(obj.Address),
                Count = shape.Count,
                ElementType = shape.ElementType,
                CollectionType = TypeNames.Reflection(obj.Type!.Name),
                Kind = shape.Kind,
            };
            // Object collections (reference elements other than strings) get a type distribution.
            bool distribution = !shape.IsPairs && shape.ElementType != "System.String";
            var sink = new CollectionSink(_reader, stats, distribution, maxPreviewItems, timeoutMs);
            new CollectionWalker(_reader, sink, shape.Count).Walk(shape.Kind, obj);
            sink.Complete(record, shape.IsPairs);
            return record;
        }
        catch (Exception exc) when (exc is not HeapTargetException)
        {
            throw new HeapTargetException("HEAP_READ_ERROR", $"cannot read collection at {HeapJson.Hex(address)}: {exc.Message}", exc);
        }
    }

    /// <summary>The first <paramref name="items"/> elements of a collection as text (pairs as
    /// "key: value"), read without walking the rest: object_summarize's preview of a
    /// collection-typed field.</summary>
    internal List<string> Preview(ClrObject obj, CollectionShape shape, int items)
    {
        var sink = new CollectionSink(_reader, null, false, items, PreviewBudgetMs, readLimit: items);
        new CollectionWalker(_reader, sink, shape.Count).Walk(shape.Kind, obj);
        var record = new CollectionRecord();
        sink.Complete(record, shape.IsPairs);
        return shape.IsPairs
            ? (record.KeyValuePairs ?? []).Select(p => p.Key + ": " + p.Value).ToList()
            : (record.FirstElements ?? []).Select(e => e.Value).ToList();
    }

    private const int PreviewBudgetMs = 1000;

    /// <summary>The kind, count and element type of a collection object; null for anything else.</summary>
    internal CollectionShape? Shape(ClrObject obj)
    {
        try
        {
            return obj.Type is null ? null : CollectionShape.Of(obj, _reader);
        }
        catch (Exception exc) when (exc is ArgumentException or InvalidOperationException or HeapTargetException)
        {
            return null;
        }
    }

    private static HeapTargetException NotCollection(ClrObject obj) => new("NOT_COLLECTION",
        $"object at {HeapJson.Hex(obj.Address)} is of type '{TypeNames.Reflection(obj.Type?.Name)}', which is not a recognized collection type");
}
