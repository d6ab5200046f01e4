namespace PyInspect.Heap;

/// <summary>
/// Whether an answer read the whole target, and where not, why: the segments the walk had
/// to stop in, references to no object, threads whose stacks could not be read. Every heap
/// and triage answer carries one (pyinspect.models.completeness.Completeness on the Python side).
/// </summary>
public sealed class CompletenessRecord
{
    public bool Complete { get; set; } = true;
    public List<SegmentStopRecord> StoppedSegments { get; set; } = new();
    public long UnresolvedReferences { get; set; }
    public List<uint> UnreadableThreads { get; set; } = new();
    public List<string> Notes { get; set; } = new();

    /// <summary>Complete set from what was found: nothing stopped, unresolved or unread.</summary>
    public CompletenessRecord Settle()
    {
        Complete = StoppedSegments.Count == 0 && UnresolvedReferences == 0 && UnreadableThreads.Count == 0 && Notes.Count == 0;
        return this;
    }
}
