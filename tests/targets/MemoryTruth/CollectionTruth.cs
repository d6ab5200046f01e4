using System.Collections;
using System.Globalization;

namespace MemoryTruth;

/// <summary>What collection_analyze must answer for a collection, computed here with the
/// collection's own enumeration order and LINQ's statistics.</summary>
public static class CollectionTruth
{
    public const int Preview = 5;

    public static Dictionary<string, object> Sequence<T>(object collection, IEnumerable<T> items, string kind)
    {
        var list = items as List<T> ?? items.ToList();
        var truth = Header(collection, kind, typeof(T), list.Count);
        // Unoptimized code boxes each element for `is null`: skip value types (3M boxes break the no-GC region).
        truth["nullCount"] = typeof(T).IsValueType ? 0 : list.Count(x => x is null);
        truth["first"] = Elements(list, 0, Math.Min(Preview, list.Count));
        truth["last"] = Elements(list, Math.Max(0, list.Count - Preview), Math.Min(Preview, list.Count));
        truth["numericStats"] = Stats(list);
        truth["typeDistribution"] = !typeof(T).IsValueType && typeof(T) != typeof(string) ? Distribution(list) : null;
        return truth;
    }

    public static Dictionary<string, object> Pairs<TKey, TValue>(object collection, IEnumerable<KeyValuePair<TKey, TValue>> pairs, string kind)
    {
        var list = pairs.ToList();
        var truth = Header(collection, kind, typeof(KeyValuePair<TKey, TValue>), list.Count);
        truth["nullCount"] = list.Count(p => p.Value is null);
        truth["keyValuePairs"] = list.Take(Preview).Select(p => Pair(p.Key, p.Value)).ToList();
        return truth;
    }

    public static Dictionary<string, object> Entries(Hashtable table)
    {
        var list = table.Cast<DictionaryEntry>().ToList();
        var truth = Header(table, "Hashtable", typeof(DictionaryEntry), list.Count);
        truth["nullCount"] = list.Count(p => p.Value is null);
        truth["keyValuePairs"] = list.Take(Preview).Select(p => Pair(p.Key, p.Value)).ToList();
        return truth;
    }

    private static Dictionary<string, object> Header(object collection, string kind, Type elementType, int count) => new()
    {
        ["address"] = Truth.Hex(collection),
        ["collectionType"] = collection.GetType().ToString(),
        ["elementType"] = elementType.ToString(),
        ["kind"] = kind,
        ["count"] = count,
    };

    private static Dictionary<string, object> Pair(object key, object value) => new()
    {
        ["key"] = Truth.Format(key),
        ["keyType"] = Truth.TypeOf(key),
        ["value"] = Truth.Format(value),
        ["valueType"] = Truth.TypeOf(value),
    };

    private static List<Dictionary<string, object>> Elements<T>(List<T> list, int start, int count) =>
        Enumerable.Range(start, count).Select(i => new Dictionary<string, object>
        {
            ["index"] = i,
            ["value"] = Truth.Format(list[i]),
            ["type"] = list[i] is null ? "null" : list[i].GetType().ToString(),
        }).ToList();

    private static List<Dictionary<string, object>> Distribution<T>(List<T> list) =>
        list.GroupBy(x => x is null ? "null" : x.GetType().ToString())
            .OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal)
            .Select(g => new Dictionary<string, object> { ["typeName"] = g.Key, ["count"] = g.Count() })
            .ToList();

    /// <summary>LINQ's Min, Max, Average and Sum (C# semantics for NaN and infinities).</summary>
    private static Dictionary<string, string> Stats<T>(List<T> list)
    {
        if (list.Count == 0)
            return null;
        return list switch
        {
            List<int> v => Make(v.Min(), v.Max(), v.Average(), v.Select(x => (long)x).Sum()),
            List<long> v => Make(v.Min(), v.Max(), v.Average(), v.Sum()),
            List<short> v => Make(v.Min(), v.Max(), v.Average(x => x), v.Sum(x => (long)x)),
            List<byte> v => Make(v.Min(), v.Max(), v.Average(x => x), v.Sum(x => (long)x)),
            List<double> v => Make(v.Min(), v.Max(), v.Average(), v.Sum()),
            List<float> v => Make(v.Min(), v.Max(), v.Average(), v.Sum()),
            List<decimal> v => Make(v.Min(), v.Max(), v.Average(), v.Sum()),
            _ => null,
        };
    }

    private static Dictionary<string, string> Make(IFormattable min, IFormattable max, IFormattable average, IFormattable sum) => new()
    {
        ["min"] = min.ToString(null, CultureInfo.InvariantCulture),
        ["max"] = max.ToString(null, CultureInfo.InvariantCulture),
        ["average"] = average.ToString(null, CultureInfo.InvariantCulture),
        ["sum"] = sum.ToString(null, CultureInfo.InvariantCulture),
    };
}
