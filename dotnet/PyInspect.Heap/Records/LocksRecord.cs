namespace PyInspect.Heap;

/// <summary>The locks held or waited for, and the deadlocks among them.</summary>
public sealed class LocksRecord
{
    public List<LockRecord> Locks { get; set; } = new();
    public List<DeadlockRecord> Deadlocks { get; set; } = new();

    /// <summary>Whether the heap walk behind this answer read the whole heap.</summary>
    public CompletenessRecord Completeness { get; set; } = new();
}
