namespace PyInspect.Heap;

/// <summary>The GNU build id of an ELF file (its NT_GNU_BUILD_ID note): two files with the
/// same build id are the same build. A DAC matches a runtime when the libcoreclr.so beside
/// it has the build id of the target's libcoreclr.so.</summary>
public static class ElfBuildId
{
    private const uint PtNote = 4;
    private const uint NtGnuBuildId = 3;

    /// <summary>The build id as lower-case hex, or null when the file has none or is not ELF64.
    /// Only the header, the program headers and the notes are read (a libcoreclr.so is 7 MB).</summary>
    public static string? Of(string path)
    {
        try
        {
            using var file = File.OpenHandle(path);
            long length = RandomAccess.GetLength(file);
            byte[] head = Read(file, 0, 64, length);
            if (head.Length < 64 || head[0] != 0x7F || head[1] != (byte)'E' || head[4] != 2) return null;
            long phoff = BitConverter.ToInt64(head, 0x20);
            int phentsize = BitConverter.ToUInt16(head, 0x36), phnum = BitConverter.ToUInt16(head, 0x38);
            for (int i = 0; i < phnum; i++)
            {
                long header = phoff + (long)i * phentsize;
                if (header + 0x28 > length) continue;
                byte[] program = Read(file, header, 0x28, length);
                if (BitConverter.ToUInt32(program, 0) != PtNote) continue;
                long offset = BitConverter.ToInt64(program, 8);
                string? id = FindInNotes(Read(file, offset, BitConverter.ToInt64(program, 0x20), length));
                if (id is not null) return id;
            }
            return null;
        }
        catch (Exception exc) when (exc is IOException or UnauthorizedAccessException) { return null; }
    }

    /// <summary>The bytes at offset, count of them or as many as the file holds there.</summary>
    private static byte[] Read(Microsoft.Win32.SafeHandles.SafeFileHandle file, long offset, long count, long length)
    {
        long available = Math.Min(length, offset + count) - offset;
        if (offset < 0 || available <= 0) return [];
        var bytes = new byte[available];
        int read = 0;
        while (read < bytes.Length)
        {
            int got = RandomAccess.Read(file, bytes.AsSpan(read), offset + read);
            if (got == 0) return bytes[..read];
            read += got;
        }
        return bytes;
    }

    /// <summary>The build id among a PT_NOTE segment's notes (notes: the segment's bytes in the file).</summary>
    private static string? FindInNotes(byte[] notes)
    {
        long offset = 0, end = notes.Length;
        while (offset + 12 <= end)
        {
            int nameSize = BitConverter.ToInt32(notes, (int)offset), descSize = BitConverter.ToInt32(notes, (int)offset + 4);
            uint type = BitConverter.ToUInt32(notes, (int)offset + 8);
            long desc = offset + 12 + Align4(nameSize);
            if (desc + descSize > end) return null;
            if (type == NtGnuBuildId && nameSize == 4 && notes[offset + 12] == (byte)'G')
                return Convert.ToHexString(notes, (int)desc, descSize).ToLowerInvariant();
            offset = desc + Align4(descSize);
        }
        return null;
    }

    private static long Align4(int value) => (value + 3) & ~3;

    public static string Hex(System.Collections.Immutable.ImmutableArray<byte> id) =>
        id.IsDefaultOrEmpty ? "" : Convert.ToHexString(id.AsSpan()).ToLowerInvariant();
}
