// Getters that fill a cache on their first read, as everyday C# and the BCL do
// (`_keys ??= new KeyCollection(this)`). At the stop the caches of `catalogue` are empty: a
// read-only evaluation fills them for itself only, so it answers what the getter answers and
// the program's fields still hold null afterwards.
namespace GetterTruth;

public sealed class Catalogue(string owner)
{
    private readonly Dictionary<string, int> _stock = new() { ["pens"] = 12, ["ink"] = 3 };
    private string? _title;
    private Label? _label;

    public string Title => _title ??= "Catalogue of " + owner;
    public Label Label => _label ??= new Label(owner.ToUpperInvariant());
    /// <summary>Dictionary.Keys fills the dictionary's own `_keys` cache.</summary>
    public int StockKinds => _stock.Keys.Count;
    /// <summary>Filled once, then read back from the cache: the same object both times.</summary>
    public bool SameLabelTwice => ReferenceEquals(Label, Label);
    /// <summary>A fill, then a store into the filled field: the second store changes what the cache holds.</summary>
    public string Retitled
    {
        get
        {
            _ = Title;
            _title = "renamed";
            return _title;
        }
    }
}

public sealed class Label(string text)
{
    public string Text { get; } = text;
}
