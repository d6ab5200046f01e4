namespace PyInspect.Heap;

/// <summary>
/// One stack frame: a managed method (with its IL offset, and file and line where the
/// module's portable PDB is found) or a runtime frame (kind "runtime", method its name).
/// Objects are what the frame's stack slots and registers hold (GC roots of the frame).
/// </summary>
public sealed class FrameRecord
{
    public string Kind { get; set; } = "managed";
    public string Method { get; set; } = "";
    public string? Module { get; set; }
    public int? IlOffset { get; set; }
    public string? File { get; set; }
    public int? Line { get; set; }
    /// <summary>Why the frame has no file and line: its module's PDB was not found (said on
    /// the module's first such frame in an answer).</summary>
    public string? Symbols { get; set; }
    public string? InstructionPointer { get; set; }
    public string? StackPointer { get; set; }
    public List<StackObjectRecord>? Objects { get; set; }
}
