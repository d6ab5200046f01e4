namespace PyInspect.Heap;

/// <summary>
/// An exception object as the heap holds it: type, message, HResult, the stack trace the
/// object carries (frames as <see cref="FrameRecord"/>, no stack objects) and its inner
/// exception. Thread is the OS id of the thread whose current exception it is, if any.
/// </summary>
public sealed class ExceptionRecord
{
    public string Address { get; set; } = "";
    public string Type { get; set; } = "";
    public string? Message { get; set; }
    public int HResult { get; set; }
    public long? Thread { get; set; }
    public string? ThreadName { get; set; }
    public List<FrameRecord> Stack { get; set; } = new();
    public ExceptionRecord? Inner { get; set; }
}
