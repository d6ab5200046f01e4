using System.Diagnostics;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Receives a collection's elements (or key/value pairs) in enumeration order and keeps
/// only what the answer needs: counts, statistics, the type distribution, the first
/// elements formatted on arrival and the last ones as slots, formatted at the end.
/// <see cref="Add"/> returns false once the time budget is spent; walkers then stop.
/// </summary>
internal sealed class CollectionSink
{
    private const int BudgetCheckInterval = 4096;
    private readonly SlotReader _reader;
    private readonly NumericStats? _stats;
    private readonly bool _distribution;
    private readonly int _preview;
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly long _budgetMs;
    private readonly Dictionary<ulong, (ClrType Type, int Count)> _types = new();
    private readonly List<ElementRecord> _first = new();
    private readonly Queue<(int Index, Slot Slot)> _last = new();
    private readonly List<PairRecord> _pairs = new();
    private bool _sawReference;

    public CollectionSink(SlotReader reader, NumericStats? stats, bool distribution, int preview, long budgetMs)
    {
        _reader = reader;
        _stats = stats;
        _distribution = distribution;
        _preview = preview;
        _budgetMs = budgetMs;
    }

    public int Read { get; private set; }
    public int Nulls { get; private set; }
    public bool Sampled { get; private set; }

    public bool Add(Slot slot)
    {
        int index = Read++;
        if (slot.IsReference)
        {
            _sawReference = true;
            CountReference(_reader.Pointer(slot.Location));
        }
        else
            _stats?.Add(_reader, slot);
        if (index < _preview)
            _first.Add(Element(index, slot));
        else
        {
            _last.Enqueue((index, slot));
            if (_last.Count > _preview)
                _last.Dequeue();
        }
        return WithinBudget();
    }

    public bool AddPair(Slot key, Slot value)
    {
        Read++;
        if (value.IsReference && _reader.Pointer(value.Location) == 0)
            Nulls++;
        if (_pairs.Count < _preview)
        {
            var (keyText, keyType) = _reader.Describe(key);
            var (valueText, valueType) = _reader.Describe(value);
            _pairs.Add(new PairRecord { Key = keyText, KeyType = keyType, Value = valueText, ValueType = valueType });
        }
        return WithinBudget();
    }

    private void CountReference(ulong address)
    {
        if (address == 0)
        {
            Nulls++;
            return;
        }
        if (_distribution && _reader.RuntimeType(address) is { } type)
            _types[type.MethodTable] = (type, _types.TryGetValue(type.MethodTable, out var seen) ? seen.Count + 1 : 1);
    }

    private bool WithinBudget()
    {
        if (Read % BudgetCheckInterval != 0 || _clock.ElapsedMilliseconds <= _budgetMs)
            return true;
        Sampled = true;
        return false;
    }

    private ElementRecord Element(int index, Slot slot)
    {
        var (value, type) = _reader.Describe(slot);
        return new ElementRecord { Index = index, Value = value, Type = type };
    }

    /// <summary>Fill the record's element parts; sequences get first/last, maps get pairs.</summary>
    public void Complete(CollectionRecord record, bool pairs)
    {
        record.NullCount = Nulls;
        record.IsSampled = Sampled;
        record.SampledCount = Sampled ? Read : null;
        if (pairs)
        {
            record.KeyValuePairs = _pairs;
            return;
        }
        record.FirstElements = _first;
        // The last elements overlap the first ones when the collection is short.
        var tail = _first.Skip(Math.Max(0, _first.Count - (_preview - _last.Count))).ToList();
        record.LastElements = tail.Concat(_last.Select(e => Element(e.Index, e.Slot))).ToList();
        record.NumericStats = _stats?.ToRecord();
        if (_distribution && _sawReference)
            record.TypeDistribution = Distribution();
    }

    private List<TypeCountRecord> Distribution()
    {
        var rows = _types.Values.Select(t => new TypeCountRecord { TypeName = TypeNames.Reflection(t.Type.Name), Count = t.Count }).ToList();
        if (Nulls > 0)
            rows.Add(new TypeCountRecord { TypeName = "null", Count = Nulls });
        return rows.OrderByDescending(r => r.Count).ThenBy(r => r.TypeName, StringComparer.Ordinal).ToList();
    }
}
