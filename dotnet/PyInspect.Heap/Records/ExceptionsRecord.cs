namespace PyInspect.Heap;

/// <summary>
/// Every exception object on the heap: threads' current exceptions first (in a crash dump,
/// the one that killed the process), then the others, up to the limit; counts by type over all.
/// </summary>
public sealed class ExceptionsRecord
{
    public int Total { get; set; }
    public bool Truncated { get; set; }
    public List<TypeCountRecord> ByType { get; set; } = new();
    public List<ExceptionRecord> Exceptions { get; set; } = new();

    /// <summary>Whether the heap walk behind this answer read the whole heap.</summary>
    public CompletenessRecord Completeness { get; set; } = new();
}
