namespace PyInspect.Heap;

/// <summary>Every async chain on the heap, stuck ones first, up to the limit.</summary>
public sealed class AsyncChainsRecord
{
    public int StateMachines { get; set; }
    public int Total { get; set; }
    public bool Truncated { get; set; }
    public List<AsyncChainRecord> Chains { get; set; } = new();

    /// <summary>Whether the heap walk behind this answer read the whole heap.</summary>
    public CompletenessRecord Completeness { get; set; } = new();
}
