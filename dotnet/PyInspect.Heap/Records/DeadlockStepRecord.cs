namespace PyInspect.Heap;

/// <summary>One thread of a deadlock: the lock it holds and the lock it waits for.</summary>
public sealed class DeadlockStepRecord
{
    public ThreadRefRecord Thread { get; set; } = new();
    public string Holds { get; set; } = "";
    public string HoldsType { get; set; } = "";
    public string WaitsFor { get; set; } = "";
    public string WaitsForType { get; set; } = "";
}
