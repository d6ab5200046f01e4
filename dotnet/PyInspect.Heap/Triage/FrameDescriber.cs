using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// A ClrMD stack frame as a <see cref="FrameRecord"/>: method, IL offset, file and line.
/// A frame below the leaf stands at a return address, the instruction after its call, so
/// its IL offset is looked up one byte back (as SOS does) to land on the calling line.
/// Without source lines a frame is named only (method and module): what an answer that lists
/// no frames reads them for (the lock reader: which method a thread is blocked in).
/// </summary>
public sealed class FrameDescriber
{
    private readonly SourceLines? _lines;

    /// <param name="lines">where files and lines come from, or null to name frames only</param>
    public FrameDescriber(SourceLines? lines) => _lines = lines;

    public FrameRecord Describe(ClrStackFrame frame, bool atReturnAddress)
    {
        var record = new FrameRecord
        {
            InstructionPointer = HeapJson.Hex(frame.InstructionPointer),
            StackPointer = HeapJson.Hex(frame.StackPointer),
        };
        if (frame.Kind != ClrStackFrameKind.ManagedMethod || frame.Method is not { } method)
        {
            record.Kind = "runtime";
            record.Method = frame.FrameName ?? frame.Method?.Signature ?? "?";
            return record;
        }
        record.Method = MethodName(method);
        string? module = method.Type?.Module?.Name;
        record.Module = module is null ? null : Path.GetFileName(module);
        if (_lines is null)
            return record;
        ulong ip = frame.InstructionPointer;
        int il = method.GetILOffset(atReturnAddress && ip > 0 ? ip - 1 : ip);
        if (il >= 0)
        {
            record.IlOffset = il;
            if (_lines.Locate(module, method.MetadataToken, il) is { } where)
                (record.File, record.Line) = where;
            else
                record.Symbols = _lines.SayMissing(module);
        }
        return record;
    }

    /// <summary>The method as ClrMD signs it (`Ns.Type.Method(Arg)`), else type and name.</summary>
    public static string MethodName(ClrMethod method) =>
        method.Signature ?? $"{method.Type?.Name}.{method.Name}";
}
