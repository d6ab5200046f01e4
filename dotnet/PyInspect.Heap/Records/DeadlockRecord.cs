namespace PyInspect.Heap;

/// <summary>A cycle of threads each holding a lock the next waits for, said as a sentence and as steps.</summary>
public sealed class DeadlockRecord
{
    public string Description { get; set; } = "";
    public List<DeadlockStepRecord> Cycle { get; set; } = new();
}
