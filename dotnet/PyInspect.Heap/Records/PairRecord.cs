namespace PyInspect.Heap;

/// <summary>One previewed dictionary entry; types are the runtime types ("null" for null).</summary>
public sealed class PairRecord
{
    public string Key { get; set; } = "";
    public string KeyType { get; set; } = "";
    public string Value { get; set; } = "";
    public string ValueType { get; set; } = "";
}
