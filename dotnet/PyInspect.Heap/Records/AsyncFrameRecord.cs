namespace PyInspect.Heap;

/// <summary>
/// One async method of a chain: its state machine box, the method it implements, its
/// state (the index of the await it is suspended at; -1 running, -2 done) with that
/// await's file and line, and the task it awaits.
/// </summary>
public sealed class AsyncFrameRecord
{
    public string Address { get; set; } = "";
    public string Method { get; set; } = "";
    public string StateMachineType { get; set; } = "";
    public int State { get; set; }
    public string? File { get; set; }
    public int? Line { get; set; }
    public string? Awaits { get; set; }
    public string? AwaitsType { get; set; }
    public string? AwaitsStatus { get; set; }
}
