using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Feeds a collection's elements to a <see cref="CollectionSink"/> in the order the
/// collection enumerates them, reading its internal layout (.NET 8-10, field names from
/// the runtime's sources): arrays and array-backed lists, ring buffers from their head,
/// stacks from the top, hash tables skipping free entries (next &lt; -1), linked nodes,
/// red-black and AVL trees in order, concurrent buckets and queue segments.
/// </summary>
internal sealed class CollectionWalker
{
    private readonly SlotReader _r;
    private readonly CollectionSink _sink;
    private readonly int _limit;

    public CollectionWalker(SlotReader reader, CollectionSink sink, int count)
    {
        _r = reader;
        _sink = sink;
        _limit = Math.Max(count, 0);
    }

    public void Walk(string kind, ClrObject obj)
    {
        switch (kind)
        {
            case "Array": Range(obj, 0, obj.AsArray().Length, 1, wrap: false); break;
            case "List" or "ArrayList": Range(obj.ReadObjectField("_items"), 0, _limit, 1, wrap: false); break;
            case "Queue": Range(obj.ReadObjectField("_array"), obj.ReadField<int>("_head"), _limit, 1, wrap: true); break;
            case "Stack": Range(obj.ReadObjectField("_array"), _limit - 1, _limit, -1, wrap: false); break;
            case "ImmutableArray":
                var items = CollectionShape.ImmutableArrayItems(obj, _r);
                if (!items.IsNull)
                    Range(items, 0, items.AsArray().Length, 1, wrap: false);
                break;
            case "Dictionary": Entries(obj, "key", "value", "next"); break;
            case "HashSet": Entries(obj, null, "Value", "Next"); break;
            case "LinkedList": Linked(obj); break;
            case "SortedSet": Tree(obj.ReadObjectField("root"), pairs: false); break;
            case "SortedDictionary": Tree(obj.ReadObjectField("_set").ReadObjectField("root"), pairs: true); break;
            case "ImmutableList": Tree(obj.ReadObjectField("_root"), pairs: false); break;
            case "ConcurrentDictionary": ConcurrentBuckets(obj.ReadObjectField("_tables").ReadObjectField("_buckets")); break;
            case "ConcurrentQueue": Segments(obj, _r, feed: true); break;
            case "Hashtable": Hashtable(obj.ReadObjectField("_buckets")); break;
        }
    }

    /// <summary>count elements of an array starting at index first, stepping by step;
    /// wrap makes indices run modulo the array's length (a ring buffer).</summary>
    private void Range(ClrObject array, int first, int count, int step, bool wrap)
    {
        if (array.IsNull || count <= 0)
            return;
        var info = ArrayInfo(array);
        int length = array.AsArray().Length;
        count = Math.Min(count, length);
        if (step == 1 && !info.Element.IsReference && first >= 0 && first < length)
        {
            // Primitives in order: at most two contiguous runs (a ring buffer wraps once).
            int run = Math.Min(count, length - first);
            if (!_sink.AddContiguous(At(info, first), (int)info.Stride, run))
                return;
            if (wrap && count > run)
                _sink.AddContiguous(At(info, 0), (int)info.Stride, count - run);
            return;
        }
        for (int i = 0, index = first; i < count; i++, index += step)
        {
            if (wrap && index >= length)
                index -= length;
            if (!_sink.Add(info.Element with { Location = info.DataStart + (ulong)index * info.Stride }))
                return;
        }
    }

    private static Slot At((ulong DataStart, ulong Stride, Slot Element) info, int index) =>
        info.Element with { Location = info.DataStart + (ulong)index * info.Stride };

    private (ulong DataStart, ulong Stride, Slot Element) ArrayInfo(ClrObject array)
    {
        var type = array.Type!;
        var component = type.ComponentType;
        ulong dataStart = array.Address + (ulong)(type.StaticSize - _r.PointerSize);
        var element = Slot.Of(dataStart, component?.ElementType ?? ClrElementType.Unknown, component);
        return (dataStart, (ulong)type.ComponentSize, element);
    }

    /// <summary>Dictionary/HashSet entries [0, _count): an entry is live when next >= -1.</summary>
    private void Entries(ClrObject obj, string? keyName, string valueName, string nextName)
    {
        var entries = obj.ReadObjectField("_entries");
        if (entries.IsNull)
            return;
        int used = Math.Min(obj.ReadField<int>("_count"), entries.AsArray().Length);
        var (dataStart, stride, element) = ArrayInfo(entries);
        var entryType = element.Type ?? throw CollectionShape.Layout(entries.Type, "element type");
        var key = keyName is null ? null : entryType.GetFieldByName(keyName) ?? throw CollectionShape.Layout(entryType, keyName);
        var value = entryType.GetFieldByName(valueName) ?? throw CollectionShape.Layout(entryType, valueName);
        var next = entryType.GetFieldByName(nextName) ?? throw CollectionShape.Layout(entryType, nextName);
        for (int i = 0; i < used; i++)
        {
            ulong entry = dataStart + (ulong)i * stride;
            if (_r.Memory.Read<int>(entry + (ulong)next.Offset) < -1)
                continue;
            bool more = key is null
                ? _sink.Add(Slot.OfField(entry, value))
                : _sink.AddPair(Slot.OfField(entry, key), Slot.OfField(entry, value));
            if (!more)
                return;
        }
    }

    private void Linked(ClrObject list)
    {
        ulong head = _r.Pointer(list.Address + (ulong)_r.PointerSize + (ulong)Field(list.Type, "head").Offset);
        if (head == 0)
            return;
        var nodeType = _r.RuntimeType(head);
        var item = Field(nodeType, "item");
        var next = Field(nodeType, "next");
        ulong node = head;
        for (int i = 0; i < _limit && node != 0; i++)
        {
            ulong fields = node + (ulong)_r.PointerSize;
            if (!_sink.Add(Slot.OfField(fields, item)))
                return;
            node = _r.Pointer(fields + (ulong)next.Offset);
            if (node == head)
                return;
        }
    }

    /// <summary>In-order walk of a SortedSet (red-black) or ImmutableList (AVL) tree.
    /// ImmutableList marks its empty leaves by a null left child.</summary>
    private void Tree(ClrObject root, bool pairs)
    {
        if (root.IsNull)
            return;
        var nodeType = root.Type!;
        var left = FieldAny(nodeType, "<Left>k__BackingField", "Left", "_left");
        var right = FieldAny(nodeType, "<Right>k__BackingField", "Right", "_right");
        var item = FieldAny(nodeType, "<Item>k__BackingField", "Item", "_key");
        bool emptyLeaves = left.Name == "_left";
        ulong offset = (ulong)_r.PointerSize;
        bool IsNode(ulong n) => n != 0 && (!emptyLeaves || _r.Pointer(n + offset + (ulong)left.Offset) != 0);
        var pending = new Stack<ulong>();
        ulong node = root.Address;
        int visited = 0;
        while ((IsNode(node) || pending.Count > 0) && visited++ <= _limit)
        {
            while (IsNode(node))
            {
                pending.Push(node);
                node = _r.Pointer(node + offset + (ulong)left.Offset);
            }
            node = pending.Pop();
            var slot = Slot.OfField(node + offset, item);
            if (!(pairs ? Pair(slot) : _sink.Add(slot)))
                return;
            node = _r.Pointer(node + offset + (ulong)right.Offset);
        }
    }

    /// <summary>A KeyValuePair struct in a slot, fed as a key/value pair.</summary>
    private bool Pair(Slot kvp)
    {
        var type = kvp.Type ?? throw CollectionShape.Layout(null, "KeyValuePair type");
        return _sink.AddPair(Slot.OfField(kvp.Location, Field(type, "key")), Slot.OfField(kvp.Location, Field(type, "value")));
    }

    /// <summary>ConcurrentDictionary buckets: VolatileNode structs (.NET 7+) or Node references, each a chain.</summary>
    private void ConcurrentBuckets(ClrObject buckets)
    {
        var (dataStart, stride, element) = ArrayInfo(buckets);
        ulong nodeAt = element.IsReference ? 0 : (ulong)Field(element.Type, "_node").Offset;
        int length = buckets.AsArray().Length;
        ClrInstanceField? key = null, value = null, next = null;
        for (int i = 0; i < length; i++)
        {
            for (ulong node = _r.Pointer(dataStart + (ulong)i * stride + nodeAt); node != 0;)
            {
                if (key is null)
                {
                    var nodeType = _r.RuntimeType(node);
                    (key, value, next) = (Field(nodeType, "_key"), Field(nodeType, "_value"), Field(nodeType, "_next"));
                }
                ulong fields = node + (ulong)_r.PointerSize;
                if (!_sink.AddPair(Slot.OfField(fields, key), Slot.OfField(fields, value!)))
                    return;
                node = _r.Pointer(fields + (ulong)next!.Offset);
            }
        }
    }

    private void Hashtable(ClrObject buckets)
    {
        var (dataStart, stride, element) = ArrayInfo(buckets);
        var key = Field(element.Type, "key");
        var value = Field(element.Type, "val");
        // Hashtable enumerates from the last bucket down; a removed entry's key is the bucket array.
        for (int i = buckets.AsArray().Length - 1; i >= 0; i--)
        {
            ulong bucket = dataStart + (ulong)i * stride;
            ulong keyAddress = _r.Pointer(bucket + (ulong)key.Offset);
            if (keyAddress == 0 || keyAddress == buckets.Address)
                continue;
            if (!_sink.AddPair(Slot.OfField(bucket, key), Slot.OfField(bucket, value)))
                return;
        }
    }

    /// <summary>ConcurrentQueue segments from _head: positions [Head, Tail) of each, Tail
    /// less the freeze offset (2 x slots) once a segment is frozen for enqueues.</summary>
    internal static int ConcurrentQueueCount(ClrObject queue, SlotReader reader) =>
        new CollectionWalker(reader, null!, int.MaxValue).Segments(queue, reader, feed: false);

    private int Segments(ClrObject queue, SlotReader r, bool feed)
    {
        int total = 0;
        var segment = queue.ReadObjectField("_head");
        for (int guard = 0; !segment.IsNull && guard < 1 << 20; guard++)
        {
            var slots = segment.ReadObjectField("_slots");
            int length = slots.AsArray().Length;
            var headAndTail = segment.ReadValueTypeField("_headAndTail");
            int head = headAndTail.ReadField<int>("Head");
            int tail = headAndTail.ReadField<int>("Tail");
            if (segment.ReadField<bool>("_frozenForEnqueues"))
                tail -= 2 * length;
            int mask = segment.ReadField<int>("_slotsMask");
            total += Math.Max(0, tail - head);
            if (feed && !SegmentItems(slots, head, tail, mask))
                return total;
            segment = segment.ReadObjectField("_nextSegment");
        }
        return total;
    }

    private bool SegmentItems(ClrObject slots, int head, int tail, int mask)
    {
        var (dataStart, stride, element) = ArrayInfo(slots);
        var item = Field(element.Type, "Item");
        for (int position = head; position < tail; position++)
        {
            if (!_sink.Add(Slot.OfField(dataStart + (ulong)(position & mask) * stride, item)))
                return false;
        }
        return true;
    }

    private static ClrInstanceField Field(ClrType? type, string name) =>
        type?.GetFieldByName(name) ?? throw CollectionShape.Layout(type, name);

    private static ClrInstanceField FieldAny(ClrType type, params string[] names) =>
        names.Select(type.GetFieldByName).FirstOrDefault(f => f is not null) ?? throw CollectionShape.Layout(type, names[0]);
}
