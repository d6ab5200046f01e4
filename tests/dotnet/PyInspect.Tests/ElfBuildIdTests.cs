// The GNU build id read from an ELF64 file's PT_NOTE segment: the check that a DAC matches
// the target's runtime.
using System.Runtime.InteropServices;
using PyInspect.Heap;
using Xunit;

namespace PyInspect.Tests;

public sealed class ElfBuildIdTests
{
    /// <summary>A minimal ELF64: the header, one PT_NOTE program header, notes (an ABI tag first, then the build id).</summary>
    private static byte[] Elf(byte[] buildId)
    {
        var notes = new List<byte>();
        void Note(uint type, string name, byte[] desc)
        {
            byte[] nameBytes = [.. System.Text.Encoding.ASCII.GetBytes(name), 0];
            notes.AddRange(BitConverter.GetBytes(nameBytes.Length));
            notes.AddRange(BitConverter.GetBytes(desc.Length));
            notes.AddRange(BitConverter.GetBytes(type));
            notes.AddRange(nameBytes);
            while (notes.Count % 4 != 0) notes.Add(0);
            notes.AddRange(desc);
            while (notes.Count % 4 != 0) notes.Add(0);
        }
        Note(1, "GNU", new byte[16]);  // NT_GNU_ABI_TAG
        Note(3, "GNU", buildId);       // NT_GNU_BUILD_ID
        const int phoff = 64, phentsize = 56, notesAt = phoff + phentsize;
        var elf = new byte[notesAt + notes.Count];
        elf[0] = 0x7F; elf[1] = (byte)'E'; elf[2] = (byte)'L'; elf[3] = (byte)'F'; elf[4] = 2; elf[5] = 1;
        BitConverter.GetBytes((long)phoff).CopyTo(elf, 0x20);
        BitConverter.GetBytes((ushort)phentsize).CopyTo(elf, 0x36);
        BitConverter.GetBytes((ushort)1).CopyTo(elf, 0x38);
        BitConverter.GetBytes(4u).CopyTo(elf, phoff);                        // p_type PT_NOTE
        BitConverter.GetBytes((long)notesAt).CopyTo(elf, phoff + 8);         // p_offset
        BitConverter.GetBytes((long)notes.Count).CopyTo(elf, phoff + 0x20);  // p_filesz
        notes.CopyTo(elf, notesAt);
        return elf;
    }

    private static string Written(byte[] bytes)
    {
        string path = Path.GetTempFileName();
        File.WriteAllBytes(path, bytes);
        return path;
    }

    [Fact]
    public void The_build_id_note_is_found_after_other_notes()
    {
        byte[] id = [.. Enumerable.Range(1, 20).Select(i => (byte)(i * 11))];
        string path = Written(Elf(id));
        try { Assert.Equal(Convert.ToHexString(id).ToLowerInvariant(), ElfBuildId.Of(path)); }
        finally { File.Delete(path); }
    }

    [Fact]
    public void A_file_that_is_not_elf64_has_no_build_id()
    {
        string path = Written(System.Text.Encoding.ASCII.GetBytes(new string('x', 100)));
        try { Assert.Null(ElfBuildId.Of(path)); }
        finally { File.Delete(path); }
        Assert.Null(ElfBuildId.Of("/nonexistent/libcoreclr.so"));
    }

    [Fact]
    public void The_running_runtime_has_a_twenty_byte_build_id()
    {
        string coreclr = Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "libcoreclr.so");
        Assert.Matches("^[0-9a-f]{40}$", ElfBuildId.Of(coreclr));
    }
}
