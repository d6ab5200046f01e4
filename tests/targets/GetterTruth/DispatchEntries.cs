namespace GetterTruth;

/// <summary>The dispatch loop's items, read through one base-typed local: the condition's getter
/// is overridden (ThirdEntry), refused by the interpreter because it counts its calls
/// (CountedEntry: func-eval runs it), or throws (ThrowingEntry); some slots are null.</summary>
public class Entry(int id)
{
    public int Id = id;
    public virtual bool IsFlagged => Id % 5 == 0;

    /// <summary>The loop's array: by i % 4 an Entry, a ThirdEntry, null (a ThrowingEntry at 22), a CountedEntry.</summary>
    public static Entry?[] Make(int count) => [.. Enumerable.Range(0, count).Select(i => (i % 4) switch
    {
        0 => new Entry(i),
        1 => new ThirdEntry(i),
        2 => i == 22 ? new ThrowingEntry(i) : null,
        _ => new CountedEntry(i),
    })];
}

public sealed class ThirdEntry(int id) : Entry(id)
{
    public override bool IsFlagged => Id % 3 == 0;
}

public sealed class CountedEntry(int id) : Entry(id)
{
    public override bool IsFlagged
    {
        get
        {
            DispatchEffects.Count++;
            return Id == 15;
        }
    }
}

public sealed class ThrowingEntry(int id) : Entry(id)
{
    public override bool IsFlagged => throw new InvalidOperationException($"entry {Id} cannot say");
}

/// <summary>Calls of CountedEntry.IsFlagged (the program writes it at its end).</summary>
public static class DispatchEffects
{
    public static int Count;
}
