namespace Ailments;

public sealed class Catalog
{
    public readonly List<List<long>> Shelves = new();
}

/// <summary>Lists reserved far larger than they are filled: 2,000 shelves of 1,024 slots holding
/// 8 each, kept by one Catalog.</summary>
public static class Capacity
{
    public const int Shelves = 2_000, Reserved = 1_024, Stocked = 8;
    private static readonly Catalog Store = new();

    public static Truth Build()
    {
        for (int i = 0; i < Shelves; i++)
        {
            var shelf = new List<long>(Reserved);
            for (int j = 0; j < Stocked; j++)
                shelf.Add(j);
            Store.Shelves.Add(shelf);
        }
        long wasted = (long)Shelves * (Reserved - Stocked) * sizeof(long);
        return new Truth("wasted-capacity", ["System.Collections.Generic.List<System.Int64>"], [],
            Root: "Ailments.Catalog", Bytes: wasted, Count: Shelves);
    }
}
