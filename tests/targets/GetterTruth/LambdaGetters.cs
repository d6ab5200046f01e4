// Getters that hand a lambda to LINQ, as everyday C# does: a static lambda (the compiler caches
// it in a static field of its `<>c` class), one that captures `this`, one that captures an
// argument (a closure object), a method group, and a delegate the object holds in a field.
namespace GetterTruth;

public sealed record Line(string Name, int Quantity, decimal Price);

public sealed class Basket
{
    private readonly List<Line> _lines = [new("pen", 2, 1.5m), new("ink", 1, 7m), new("pad", 3, 2m)];
    private readonly int _threshold = 2;
    private readonly Func<Line, bool> _isCheap = l => l.Price < 5m;
    private readonly Func<Line, bool> _cheapThenInk = (Func<Line, bool>)Delegate.Combine(
        (Func<Line, bool>)(l => l.Price < 5m), (Func<Line, bool>)(l => l.Name == "ink"));

    public decimal Total => _lines.Sum(l => l.Price * l.Quantity);
    public int BigLines => _lines.Count(l => l.Quantity >= _threshold);
    public bool AnyInk => _lines.Any(l => l.Name == "ink");
    public int CheapLines => _lines.Count(_isCheap);
    public int NamedLines => _lines.Count(HasName);
    public int Over(int min) => _lines.Count(l => l.Quantity > min);
    public string FirstBig => _lines.First(l => l.Quantity > 2).Name;
    /// <summary>Never run by the program before the stop: its lambda's cache field is still empty.</summary>
    public int Unseen => _lines.Count(l => l.Name.Length == 3);

    /// <summary>A multicast delegate (the last method's answer counts): ICorDebug does not tell its methods.</summary>
    public int MulticastLines => _lines.Count(_cheapThenInk);

    /// <summary>Values the getter makes: a Nullable with a value, an array, a list.</summary>
    public int? QuantityOver(int min) => _lines.FirstOrDefault(l => l.Quantity > min)?.Quantity;
    public int[] Quantities => [.. _lines.Select(l => l.Quantity)];
    public List<string> Names => _lines.Select(l => l.Name).ToList();

    /// <summary>An iterator (a state machine the compiler makes) whose foreach sits in a try/fault.</summary>
    public IEnumerable<string> LineNames
    {
        get
        {
            foreach (var line in _lines) yield return line.Name;
        }
    }

    private static bool HasName(Line line) => line.Name.Length > 0;
}

/// <summary>Thread statics: each thread has its own. The stopped (main) thread entered "main" twice.</summary>
public static class PerThread
{
    [ThreadStatic] private static string? t_name;
    [ThreadStatic] private static int t_depth;

    public static void Enter(string name)
    {
        t_name = name;
        t_depth++;
    }

    public static string Describe => (t_name ?? "none") + "@" + t_depth;
}

public sealed class ThreadReport
{
    public string Current => "on " + PerThread.Describe;
}
