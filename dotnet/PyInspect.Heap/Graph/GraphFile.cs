using System.Runtime.InteropServices;
using System.Text;

namespace PyInspect.Heap;

/// <summary>
/// Writes a whole snapshot graph to one file, so retention paths, retained sizes and diffs
/// can be computed later without the target: the 8-byte magic "PYIGRAPH", a little-endian
/// int64 header length, the header as UTF-8 JSON (format, description, counts, type names,
/// per-type retained sizes, roots), then raw little-endian arrays each starting on an
/// 8-byte boundary, in this order: addresses u64[n], sizes i64[n], retained i64[n+1],
/// typeOf i32[n], offsets i32[n+2], targets i32[edges], idom i32[n+1], generations u8[n].
/// Node n is the super-root; its edges (offsets[n]..offsets[n+1]) are the root objects.
/// </summary>
internal static class GraphFile
{
    public const string Format = "pyinspect-heap-graph/1";
    private static readonly byte[] Magic = Encoding.ASCII.GetBytes("PYIGRAPH");

    public static void Save(HeapGraph g, string description, string path)
    {
        var header = new
        {
            Format,
            Description = description,
            Objects = g.ObjectCount,
            Edges = g.Targets.Length,
            Types = g.TypeNames,
            TypeRetained = g.RetainedByType,
            Roots = g.Roots.Select(r => new { r.Object, r.Kind, r.Name, r.Thread, r.Pinned }),
            g.UnreadableObjects,
            g.UnresolvedReferences,
            g.SkippedThreads,
            g.Completeness,
        };
        byte[] json = Encoding.UTF8.GetBytes(HeapJson.Serialize(header));
        string temporary = path + ".tmp";
        using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20))
        {
            stream.Write(Magic);
            stream.Write(BitConverter.GetBytes((long)json.Length));
            stream.Write(json);
            WriteWidened<ulong>(stream, g.Addresses.Length, g.Addresses.CopyTo);
            WriteSizes(stream, g.Sizes);
            WriteWidened<long>(stream, g.Retained.Length, g.Retained.CopyTo);
            WriteTypes(stream, g.TypeOf);
            Write(stream, g.Offsets.Span);
            Write(stream, g.Targets.Span);
            Write(stream, g.Idom.Span);
            WriteWidened<byte>(stream, g.Generations.Length, g.Generations.CopyTo);
        }
        File.Move(temporary, path, overwrite: true);
    }

    private static void Write<T>(FileStream stream, ReadOnlySpan<T> values) where T : unmanaged
    {
        int pad = (int)((8 - stream.Position % 8) % 8);
        stream.Write(new byte[pad]);
        stream.Write(MemoryMarshal.AsBytes(values));
    }

    /// <summary>Type numbers as i32 (the file keeps its layout), widened a block at a time.</summary>
    private static void WriteTypes(FileStream stream, TypeIndices types)
    {
        var block = new int[1 << 16];
        for (int start = 0; start < types.Length; start += block.Length)
            Write(stream, new ReadOnlySpan<int>(block, 0, types.CopyTo(start, block)));
    }

    /// <summary>Addresses, retained sizes or generations in the file's layout (8, 8 and 1 bytes each), a block at a time.</summary>
    private static void WriteWidened<T>(FileStream stream, int length, CopyBlock<T> copy) where T : unmanaged
    {
        var block = new T[1 << 16];
        for (int start = 0; start < length; start += block.Length)
            Write(stream, new ReadOnlySpan<T>(block, 0, copy(start, block)));
    }

    private delegate int CopyBlock<T>(int start, Span<T> block);

    /// <summary>Sizes as i64 (the file keeps its layout), widened a block at a time.</summary>
    private static void WriteSizes(FileStream stream, ObjectSizes sizes)
    {
        var block = new long[1 << 16];
        for (int start = 0; start < sizes.Length; start += block.Length)
        {
            int count = Math.Min(block.Length, sizes.Length - start);
            for (int i = 0; i < count; i++)
                block[i] = sizes[start + i];
            Write(stream, new ReadOnlySpan<long>(block, 0, count));
        }
    }
}
