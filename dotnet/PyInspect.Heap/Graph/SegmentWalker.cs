using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Our own walk of one GC segment or region: its memory is read in large blocks and the
/// objects stepped by base size + component count x component size (strings count their
/// terminator), at least three pointers, aligned to 8 bytes, skipping the allocation
/// contexts (gaps the runtime hands out to threads, not objects); references come from
/// each type's GCDesc (<see cref="TypeLayout"/>). It yields exactly ClrMD's objects,
/// sizes and references (tests/integration/heap/test_heap_walk_equality.py checks that
/// object by object), at memory speed instead of several calls per object. One walker
/// per thread; it stops a segment where ClrMD's own walk would (memory it cannot read,
/// a value that is not a MethodTable) and says so in <see cref="SegmentScan.Problem"/>.
/// </summary>
internal sealed class SegmentWalker
{
    private const int PointerSize = 8;
    private const uint MinObjectSize = 3 * PointerSize;
    private const int BlockSize = 4 << 20;
    private const int LargeBlockSize = 64 << 10;
    private readonly IDataReader _reader;
    private readonly TypeLayouts _layouts;
    private readonly IReadOnlyDictionary<ulong, ulong> _allocationContexts;
    private readonly bool _references;
    private readonly bool _includeFree;
    private readonly bool _thinLocks;
    private readonly byte[] _block = GC.AllocateUninitializedArray<byte>(BlockSize);
    private readonly Dictionary<ulong, TypeLayout?> _cache = new();
    private ulong _blockStart;
    private int _blockLength;

    /// <param name="references">read each object's references (the graph), or only its type and size (stats)</param>
    /// <param name="includeFree">list free objects among the objects (stats count them), or only tally them</param>
    /// <param name="thinLocks">list the objects whose header holds a thin lock (<see cref="SegmentScan.ThinLocked"/>)</param>
    public SegmentWalker(IDataReader reader, TypeLayouts layouts, IReadOnlyDictionary<ulong, ulong> allocationContexts,
                         bool references, bool includeFree, bool thinLocks = false)
    {
        _thinLocks = thinLocks;
        _reader = reader;
        _layouts = layouts;
        _allocationContexts = allocationContexts;
        _references = references;
        _includeFree = includeFree;
    }

    /// <summary>Every object of segment into scan (reset first). Not marked AggressiveOptimization:
    /// that kept it out of the ReadyToRun image, and every one-shot walk began with a full-opts JIT
    /// compilation of it; a heap of many segments gets its tier-1 code from call counting.</summary>
    public void Walk(ClrSegment segment, SegmentScan scan)
    {
        scan.Reset(segment);
        Breadcrumbs.Say($"{segment.Kind} segment {HeapJson.Hex(segment.ObjectRange.Start)}-{HeapJson.Hex(segment.ObjectRange.End)}");
        var tally = scan.Tally;
        ulong start = segment.ObjectRange.Start, end = segment.ObjectRange.End;
        bool skipContexts = segment.Kind is not (GCSegmentKind.Large or GCSegmentKind.Frozen);
        int blockSize = segment.Kind is GCSegmentKind.Large or GCSegmentKind.Pinned ? LargeBlockSize : BlockSize;
        _blockLength = 0;
        ulong lastMt = 0;
        TypeLayout? layout = null;
        int local = -1;
        ulong obj = segment.FirstObjectAddress;
        while (obj >= start && obj < end)
        {
            if (!Ensure(obj, 2 * PointerSize, end, blockSize))
            {
                scan.Stop(obj, "its memory cannot be read");
                return;
            }
            int at = (int)(obj - _blockStart);
            ulong mt = Unsafe.ReadUnaligned<ulong>(ref _block[at]);
            if (mt != lastMt || layout is null)
            {
                layout = Layout(mt, obj);
                lastMt = mt;
                if (layout is null)
                {
                    scan.Stop(obj, mt == 0 ? "no MethodTable (zeroed memory)" : $"{HeapJson.Hex(mt)} is not a MethodTable");
                    return;
                }
                local = scan.LocalIndex(layout);
            }
            ulong size = layout.BaseSize;
            if (layout.ComponentSize != 0)
            {
                uint count = Unsafe.ReadUnaligned<uint>(ref _block[at + PointerSize]);
                if (layout.IsString)
                    count++;
                size += count * (ulong)layout.ComponentSize;
            }
            ulong step = (size + 7) & ~7UL;
            if (size < MinObjectSize)
                size = step = MinObjectSize;
            if (size > end - obj)
            {
                // a length read from damaged memory (an invented 2 GB array, a free object
                // larger than its segment): counting it would invent bytes the heap never held
                scan.Stop(obj, $"its size, {size:N0} bytes ({layout.Type.Name ?? "?"}), runs past the segment's end");
                return;
            }
            byte generation = tally.FixedGeneration ?? (byte)segment.GetGeneration(obj);
            scan.WalkedBytes += (long)size;
            if (layout.IsFree)
            {
                tally.FreeBytes += (long)size;
                var gen = (Generation)generation;
                tally.FreeByGeneration[gen] = tally.FreeByGeneration.GetValueOrDefault(gen) + (long)size;
            }
            else
            {
                tally.ObjectBytes += (long)size;
                tally.ObjectCount++;
            }
            if (!layout.IsFree || _includeFree)
            {
                scan.Addresses.Add(obj);
                scan.TypeOf.Add(local);
                scan.Sizes.Add((long)size);
                scan.Generations.Add(generation);
                if (_thinLocks && HoldsThinLock(obj, at))
                    scan.ThinLocked.Add(obj);
                if (_references)
                {
                    int edges = layout.HasReferences && size <= int.MaxValue ? AddReferences(obj, size, layout, scan, end, blockSize) : 0;
                    scan.EdgeCounts.Add(Math.Max(edges, 0));
                    if (edges < 0)
                    {
                        scan.Stop(obj, $"the references of this {layout.Type.Name} cannot be read");
                        return;
                    }
                }
            }
            obj += step;
            if (skipContexts && _allocationContexts.ContainsKey(obj))
            {
                ulong next = SkipAllocationContexts(obj);
                if (next == 0)
                {
                    scan.Stop(obj, "an allocation context there ends before it starts");
                    return;
                }
                obj = next; // past the segment's end when the context ends it: the walk is done
            }
        }
    }

    // The object header (the 4 bytes before the MethodTable pointer): a thin lock has the
    // owner's thread id in its low 16 bits and not the hash-or-sync-block-index bit.
    private const uint HashOrSyncBlockIndex = 0x08000000, ThinLockThreadId = 0x0000FFFF;

    /// <summary>Whether the header of the object at obj (at offset at of the block) holds a thin
    /// lock: read from the block, or from the target for a block's first object.</summary>
    private bool HoldsThinLock(ulong obj, int at)
    {
        uint header;
        if (at >= sizeof(uint))
            header = Unsafe.ReadUnaligned<uint>(ref _block[at - sizeof(uint)]);
        else if (!_reader.Read(obj - sizeof(uint), out header))
            return false;
        return (header & HashOrSyncBlockIndex) == 0 && (header & ThinLockThreadId) != 0;
    }

    private TypeLayout? Layout(ulong mt, ulong obj)
    {
        if (!_cache.TryGetValue(mt, out var layout))
            _cache[mt] = layout = _layouts.Get(mt, obj);
        return layout;
    }

    /// <summary>The object's references appended to the scan; -1 when they cannot be read.
    /// An object larger than a block is read whole into native memory freed at once (a
    /// pooled managed array would keep the largest object's size for the process's life).</summary>
    private unsafe int AddReferences(ulong obj, ulong size, TypeLayout layout, SegmentScan scan, ulong end, int blockSize)
    {
        int length = (int)size;
        if (length <= BlockSize)
        {
            if (!Ensure(obj, length, end, Math.Max(blockSize, length)))
                return -1;
            return layout.AddReferences(_block.AsSpan((int)(obj - _blockStart), length), length, scan.Edges);
        }
        byte* whole = (byte*)NativeMemory.Alloc((nuint)length);
        try
        {
            var bytes = new Span<byte>(whole, length);
            if (_reader.Read(obj, bytes) != length)
                return -1;
            return layout.AddReferences(bytes, length, scan.Edges);
        }
        finally
        {
            NativeMemory.Free(whole);
        }
    }

    /// <summary>True once bytes [address, address + need) are in the block, reading a block
    /// from address (up to the segment's end) when they are not.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool Ensure(ulong address, int need, ulong end, int blockSize)
    {
        if (address >= _blockStart && address + (ulong)need <= _blockStart + (ulong)_blockLength)
            return true;
        int length = (int)Math.Min((ulong)blockSize, end - address);
        length = Math.Max(length, need);
        _blockStart = address;
        _blockLength = Math.Max(0, _reader.Read(address, _block.AsSpan(0, length)));
        return _blockLength >= need;
    }

    /// <summary>Past the allocation contexts starting at address (each is followed by room
    /// for a minimal object): as ClrMD, whose walk ends where a context reaches the segment's
    /// end; 0 for a context that ends before it starts.</summary>
    private ulong SkipAllocationContexts(ulong address)
    {
        while (_allocationContexts.TryGetValue(address, out ulong next))
        {
            next += MinObjectSize;
            if (address >= next)
                return 0;
            address = next;
        }
        return address;
    }
}
