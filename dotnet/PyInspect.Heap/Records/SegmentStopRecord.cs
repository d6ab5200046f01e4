namespace PyInspect.Heap;

/// <summary>A segment whose walk had to stop: [StoppedAt, End) was not read, for Reason.</summary>
public sealed class SegmentStopRecord
{
    public string Kind { get; set; } = "";
    public string Start { get; set; } = "";
    public string End { get; set; } = "";
    public string StoppedAt { get; set; } = "";
    public string Reason { get; set; } = "";
}
