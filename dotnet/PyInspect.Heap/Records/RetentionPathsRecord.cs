namespace PyInspect.Heap;

/// <summary>The answer to why is this object alive: the paths found and whether the search was complete.</summary>
public sealed class RetentionPathsRecord
{
    public string Address { get; set; } = "";
    public string Type { get; set; } = "";
    public bool Complete { get; set; }
    public bool Reachable { get; set; }
    public string? StoppedReason { get; set; }
    public List<RetentionPathRecord> Paths { get; set; } = new();
}
