namespace PyInspect.Heap;

/// <summary>
/// collection_analyze's summary, read from the heap in one call. Elements are numbered in
/// the collection's own enumeration order (a Queue from its head, a Stack from its top).
/// When the time budget ran out, <see cref="IsSampled"/> is true and
/// <see cref="SampledCount"/> says how many elements (in that order) the figures cover.
/// </summary>
public sealed class CollectionRecord
{
    public string Address { get; set; } = "";
    public int Count { get; set; }
    public string ElementType { get; set; } = "";
    public string CollectionType { get; set; } = "";
    public string Kind { get; set; } = "";
    public int NullCount { get; set; }
    public NumericStatsRecord? NumericStats { get; set; }
    public List<TypeCountRecord>? TypeDistribution { get; set; }
    public List<ElementRecord>? FirstElements { get; set; }
    public List<ElementRecord>? LastElements { get; set; }
    public List<PairRecord>? KeyValuePairs { get; set; }
    public bool IsSampled { get; set; }
    public int? SampledCount { get; set; }
}
