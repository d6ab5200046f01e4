namespace PyInspect.Heap;

/// <summary>
/// Async methods awaiting one another, from the innermost (awaiting something that is not
/// an async method) to the root awaiter. Stuck: the innermost awaits a task with no code
/// to run that is not completed (a TaskCompletionSource's, say); reason says why.
/// </summary>
public sealed class AsyncChainRecord
{
    public bool Stuck { get; set; }
    public string? Reason { get; set; }
    public List<AsyncFrameRecord> Chain { get; set; } = new();
}
