using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// What the heap walk needs of one MethodTable, read once: the ClrType (names, statics),
/// base size and component size to step over its objects, and its GCDesc pointer series
/// to read their references. The GCDesc lies just before the MethodTable: the series
/// count at MT - pointer size, then either (size, offset) series walked from the highest
/// down (ordinary types, arrays of references), or a repeating pattern of (pointers,
/// skip) items (arrays of structs holding references). References are produced in the
/// same order as ClrMD's GCDesc walk, so the graph's edges are the same either way.
/// </summary>
internal sealed class TypeLayout
{
    private const int PointerSize = 8;
    private readonly long[] _seriesOffsets = Array.Empty<long>();
    private readonly long[] _seriesSizes = Array.Empty<long>();
    private readonly long _repeatStart;
    private readonly int[] _repeatPointers = Array.Empty<int>();
    private readonly int[] _repeatSkips = Array.Empty<int>();

    private TypeLayout(ClrType type, ulong methodTable)
    {
        Type = type;
        MethodTable = methodTable;
        BaseSize = (uint)type.StaticSize;
        ComponentSize = (uint)type.ComponentSize;
        IsString = type.IsString;
        IsFree = type.IsFree;
    }

    private TypeLayout(ClrType type, ulong methodTable, long[] offsets, long[] sizes) : this(type, methodTable)
    {
        _seriesOffsets = offsets;
        _seriesSizes = sizes;
        HasReferences = offsets.Length > 0;
    }

    private TypeLayout(ClrType type, ulong methodTable, long start, int[] pointers, int[] skips) : this(type, methodTable)
    {
        _repeatStart = start;
        _repeatPointers = pointers;
        _repeatSkips = skips;
        HasReferences = pointers.Length > 0;
    }

    public ClrType Type { get; }
    public ulong MethodTable { get; }
    public uint BaseSize { get; }
    public uint ComponentSize { get; }
    public bool IsString { get; }
    public bool IsFree { get; }
    public bool HasReferences { get; }

    /// <summary>The layout of type (whose objects carry methodTable), its GCDesc read from
    /// memory; null when the type holds references but its GCDesc cannot be read.</summary>
    public static TypeLayout? Read(ClrType type, ulong methodTable, IDataReader reader)
    {
        if (!type.ContainsPointers)
            return new TypeLayout(type, methodTable);
        if (reader.PointerSize != PointerSize || !reader.Read(methodTable - PointerSize, out long count) || count == 0)
            return null;
        int entries = (int)Math.Abs((int)count);
        var data = new byte[(1 + 2 * entries) * PointerSize];
        if (reader.Read(methodTable - (ulong)data.Length, data) != data.Length)
            return null;
        // Series are read from the highest address down, as the runtime's and ClrMD's walks do.
        int highest = data.Length - 3 * PointerSize;
        if ((int)count > 0)
        {
            var offsets = new long[entries];
            var sizes = new long[entries];
            for (int s = 0; s < entries; s++)
            {
                int at = highest - s * 2 * PointerSize;
                sizes[s] = (int)BinaryPrimitives.ReadInt64LittleEndian(data.AsSpan(at));
                offsets[s] = BinaryPrimitives.ReadInt64LittleEndian(data.AsSpan(at + PointerSize));
            }
            return new TypeLayout(type, methodTable, offsets, sizes);
        }
        long start = BinaryPrimitives.ReadInt64LittleEndian(data.AsSpan(highest + PointerSize));
        var pointers = new int[entries];
        var skips = new int[entries];
        for (int i = 0; i < entries; i++)
        {
            int at = highest - i * PointerSize;
            pointers[i] = BinaryPrimitives.ReadInt32LittleEndian(data.AsSpan(at));
            skips[i] = BinaryPrimitives.ReadInt32LittleEndian(data.AsSpan(at + PointerSize / 2));
        }
        return new TypeLayout(type, methodTable, start, pointers, skips);
    }

    /// <summary>Append the non-null references of one object (its bytes from the
    /// MethodTable pointer on, size long) to edges; the count appended, or -1 when the
    /// series point outside the object (a corrupt object: nothing is appended).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public int AddReferences(ReadOnlySpan<byte> obj, long size, GrowBuffer<ulong> edges)
    {
        int before = edges.Count;
        if (_seriesOffsets.Length > 0)
        {
            for (int s = 0; s < _seriesOffsets.Length; s++)
            {
                long offset = _seriesOffsets[s];
                long stop = offset + _seriesSizes[s] + size;
                for (; offset < stop; offset += PointerSize)
                {
                    if (offset < 0 || offset + PointerSize > obj.Length)
                        return Undo(edges, before);
                    ulong target = Unsafe.ReadUnaligned<ulong>(ref Unsafe.AsRef(in obj[(int)offset]));
                    if (target != 0)
                        edges.Add(target);
                }
            }
        }
        else
        {
            long offset = _repeatStart;
            while (offset < size - PointerSize)
            {
                for (int i = 0; i < _repeatPointers.Length; i++)
                {
                    long stop = offset + (long)_repeatPointers[i] * PointerSize;
                    do
                    {
                        if (offset < 0 || offset + PointerSize > obj.Length)
                            return Undo(edges, before);
                        ulong target = Unsafe.ReadUnaligned<ulong>(ref Unsafe.AsRef(in obj[(int)offset]));
                        if (target != 0)
                            edges.Add(target);
                        offset += PointerSize;
                    } while (offset < stop);
                    offset += _repeatSkips[i];
                }
            }
        }
        return edges.Count - before;
    }

    private static int Undo(GrowBuffer<ulong> edges, int before)
    {
        edges.Truncate(before);
        return -1;
    }
}
