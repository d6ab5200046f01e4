using System.Diagnostics;

namespace PyInspect.Heap;

/// <summary>Seconds spent per phase of a snapshot build (walk, roots, references,
/// dominators, retained sizes), so a benchmark can say where the time goes.</summary>
public sealed class PhaseTimes
{
    private readonly Dictionary<string, double> _seconds = new();
    private readonly List<string> _order = new();

    /// <summary>Run one phase and add its time under name.</summary>
    public T Time<T>(string name, Func<T> phase)
    {
        Breadcrumbs.Say(name);
        var watch = Stopwatch.StartNew();
        try
        {
            return phase();
        }
        finally
        {
            Add(name, watch.Elapsed.TotalSeconds);
        }
    }

    public void Add(string name, double seconds)
    {
        if (!_seconds.ContainsKey(name))
        {
            _order.Add(name);
            _seconds[name] = 0;
        }
        _seconds[name] += seconds;
    }

    /// <summary>{"phase": seconds, ...} in the order the phases first ran.</summary>
    public string Json() => HeapJson.Serialize(_order.ToDictionary(n => n, n => _seconds[n]));
}
