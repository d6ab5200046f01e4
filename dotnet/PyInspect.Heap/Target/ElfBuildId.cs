namespace PyInspect.Heap;

/// <summary>The GNU build id of an ELF file (its NT_GNU_BUILD_ID note): two files with the
/// same build id are the same build. A DAC matches a runtime when the libcoreclr.so beside
/// it has the build id of the target's libcoreclr.so.</summary>
public static class ElfBuildId
{
    private const uint PtNote = 4;
    private const uint NtGnuBuildId = 3;

    /// <summary>The build id as lower-case hex, or null when the file has none or is not ELF64.</summary>
    public static string? Of(string path)
    {
        byte[] elf;
        try { elf = File.ReadAllBytes(path); }
        catch (Exception exc) when (exc is IOException or UnauthorizedAccessException) { return null; }
        if (elf.Length < 64 || elf[0] != 0x7F || elf[1] != (byte)'E' || elf[4] != 2) return null;
        long phoff = BitConverter.ToInt64(elf, 0x20);
        int phentsize = BitConverter.ToUInt16(elf, 0x36), phnum = BitConverter.ToUInt16(elf, 0x38);
        for (int i = 0; i < phnum; i++)
        {
            long header = phoff + (long)i * phentsize;
            if (header + 0x28 > elf.Length || BitConverter.ToUInt32(elf, (int)header) != PtNote) continue;
            string? id = FindInNotes(elf, BitConverter.ToInt64(elf, (int)header + 8), BitConverter.ToInt64(elf, (int)header + 0x20));
            if (id is not null) return id;
        }
        return null;
    }

    private static string? FindInNotes(byte[] elf, long offset, long size)
    {
        long end = Math.Min(elf.Length, offset + size);
        while (offset + 12 <= end)
        {
            int nameSize = BitConverter.ToInt32(elf, (int)offset), descSize = BitConverter.ToInt32(elf, (int)offset + 4);
            uint type = BitConverter.ToUInt32(elf, (int)offset + 8);
            long desc = offset + 12 + Align4(nameSize);
            if (desc + descSize > end) return null;
            if (type == NtGnuBuildId && nameSize == 4 && elf[offset + 12] == (byte)'G')
                return Convert.ToHexString(elf, (int)desc, descSize).ToLowerInvariant();
            offset = desc + Align4(descSize);
        }
        return null;
    }

    private static long Align4(int value) => (value + 3) & ~3;

    public static string Hex(System.Collections.Immutable.ImmutableArray<byte> id) =>
        id.IsDefaultOrEmpty ? "" : Convert.ToHexString(id.AsSpan()).ToLowerInvariant();
}
