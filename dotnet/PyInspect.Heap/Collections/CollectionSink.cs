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
    private const int BlockBytes = 256 * 1024;
    private readonly SlotReader _reader;
    private readonly NumericStats? _stats;
    private readonly bool _distribution;
    private readonly int _preview;
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private readonly long _budgetMs;
    private readonly int _readLimit;
    private readonly Dictionary<ulong, (ClrType Type, int Count)> _types = new();
    private readonly List<ElementRecord> _first = new();
    private readonly Queue<(int Index, Slot Slot)> _last = new();
    private readonly List<PairRecord> _pairs = new();
    private bool _sawReference;

    /// <param name="readLimit">stop the walk after this many elements (a preview needs no more)</param>
    public CollectionSink(SlotReader reader, NumericStats? stats, bool distribution, int preview, long budgetMs,
        int readLimit = int.MaxValue)
    {
        _reader = reader;
        _stats = stats;
        _distribution = distribution;
        _preview = preview;
        _budgetMs = budgetMs;
        _readLimit = readLimit;
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
        Keep(index, slot);
        return WithinBudget();
    }

    /// <summary>count primitive elements stored back to back from first.Location: read a
    /// block at a time, statistics over each block, only the preview ends kept as slots.
    /// Same answer as one <see cref="Add"/> per element (which it falls back to when a
    /// block cannot be read whole or the type has no block statistics).</summary>
    public bool AddContiguous(Slot first, int stride, int count)
    {
        if (_stats is null || first.IsReference || stride <= 0 || count <= 0)
            return AddEach(first, stride, 0, count);
        var buffer = new byte[Math.Min(BlockBytes, (long)stride * count)];
        int perBlock = buffer.Length / stride;
        for (int done = 0; done < count;)
        {
            int n = Math.Min(perBlock, count - done);
            ulong at = first.Location + (ulong)done * (ulong)stride;
            var bytes = buffer.AsSpan(0, n * stride);
            if (_reader.Memory.Reader.Read(at, bytes) != bytes.Length || !_stats.AddBlock(bytes, first.Element))
                return AddEach(first, stride, done, count);
            KeepPreview(first, stride, done, n);
            done += n;
            if (done < count && _clock.ElapsedMilliseconds > _budgetMs)
            {
                Sampled = true;
                return false;
            }
        }
        return true;
    }

    /// <summary>Preview bookkeeping for elements [done, done + n) of a block already counted:
    /// the first ones formatted, the block's last ones queued (earlier ones would be pushed out).</summary>
    private void KeepPreview(Slot first, int stride, int done, int n)
    {
        for (int i = 0; i < n; i++)
        {
            int index = Read++;
            if (index >= _preview && i < n - _preview)
                continue;
            Keep(index, first with { Location = first.Location + (ulong)(done + i) * (ulong)stride });
        }
    }

    /// <summary>An element for the preview: among the first ones, or queued as one of the last.</summary>
    private void Keep(int index, Slot slot)
    {
        if (index < _preview)
            _first.Add(Element(index, slot));
        else
        {
            _last.Enqueue((index, slot));
            if (_last.Count > _preview)
                _last.Dequeue();
        }
    }

    private bool AddEach(Slot first, int stride, int from, int count)
    {
        for (int i = from; i < count; i++)
        {
            if (!Add(first with { Location = first.Location + (ulong)i * (ulong)stride }))
                return false;
        }
        return true;
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
        if (Read >= _readLimit)
            return false;
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
        record.NumericStats = _stats?.ToRecord();
        if (_distribution && _sawReference)
            record.TypeDistribution = Distribution();
        // A walk cut short by the budget never reached the end: the sample's last elements
        // are not the collection's, so there are none to show.
        if (Sampled)
            return;
        // The last elements overlap the first ones when the collection is short.
        var tail = _first.Skip(Math.Max(0, _first.Count - (_preview - _last.Count))).ToList();
        record.LastElements = tail.Concat(_last.Select(e => Element(e.Index, e.Slot))).ToList();
    }

    private List<TypeCountRecord> Distribution()
    {
        var rows = _types.Values.Select(t => new TypeCountRecord { TypeName = TypeNames.Reflection(t.Type.Name), Count = t.Count }).ToList();
        if (Nulls > 0)
            rows.Add(new TypeCountRecord { TypeName = "null", Count = Nulls });
        return rows.OrderByDescending(r => r.Count).ThenBy(r => r.TypeName, StringComparer.Ordinal).ToList();
    }
}
