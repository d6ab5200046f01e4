using System.Collections;
using System.Collections.Concurrent;
using System.Collections.Immutable;

namespace MemoryTruth;

/// <summary>Every collection kind under test, with the layout traps, held in fields so a
/// debugger can reach each one as `bag.Name`.</summary>
public class Bag
{
    public List<int> Ints = new(1000) { 5, -3, 12, 7, 0, 42, 8, -11, 6, 9 };
    public List<double> Doubles = new() { 1.5, double.NaN, -2.25, 10, 0.1 };
    public List<double> Infinities = new() { 1, double.PositiveInfinity, -3 };
    public List<float> Floats = new() { 0.5f, 2.25f, -1.75f };
    public List<decimal> Decimals = new() { 1.10m, 2.205m, -3m };
    public List<long> Longs = new() { long.MaxValue / 4, long.MaxValue / 4, -1 };
    public List<string> WithNulls = new() { "a", null, "ccc", null, "", "fff", "ggg" };
    public List<Point> Points = new() { new Point { X = 1, Y = 2, Z = 3 }, new Point { X = -4, Y = 5, Z = 6 } };
    public List<object> Mixed = new() { "hello", 42, null, new Dog { Legs = 4 }, 3.5, "world", null, 7 };
    public List<Animal> Animals = new() { new Dog(), new Animal(), new Dog(), null };
    public Dictionary<string, int> Dict = new();
    public Dictionary<int, Order> Orders = new();
    public HashSet<int> Set = new() { 10, 20, 30, 40, 50 };
    public Queue<int> Queue = new(8);
    public Stack<string> Stack = new();
    public LinkedList<int> Linked = new(new[] { 3, 1, 4, 1, 5, 9, 2, 6 });
    public SortedDictionary<int, string> Sorted = new();
    public SortedSet<string> SortedSet = new() { "pear", "apple", "fig", "kiwi", "banana", "cherry", "date" };
    public ConcurrentDictionary<int, string> Concurrent = new();
    public ConcurrentQueue<int> ConcurrentQueue = new();
    public ArrayList ArrayList = new() { 1, "two", null, 4.0 };
    public Hashtable Hashtable = new();
    public object BoxedImmutableArray = ImmutableArray.Create(8, 6, 7, 5, 3, 0, 9);
    public ImmutableList<int> ImmutableList = System.Collections.Immutable.ImmutableList.Create(2, 7, 1, 8, 2, 8, 1, 8, 2, 8);
    public int[] Array = { 4, 8, 15, 16, 23, 42 };
    public int[,] Grid = { { 1, 2, 3 }, { 4, 5, 6 } };
    public int[][] Jagged = { new[] { 1 }, null, new[] { 2, 3 } };
    public double[] Empty = System.Array.Empty<double>();
    public Customer NotACollection = new();
    public List<int> Large;

    /// <summary>Large enough that a 1 ms budget cannot read it all (sampling).</summary>
    public const int LargeCount = 3_000_000;

    /// <summary>The large list, built before the no-GC region (it would not fit in it).</summary>
    public static List<int> NewLarge()
    {
        var large = new List<int>(LargeCount);
        for (int i = 0; i < LargeCount; i++)
            large.Add(i % 1000 - 500);
        return large;
    }

    public Bag(List<int> large)
    {
        Large = large;
        for (int i = 0; i < 10; i++)
            Dict["k" + i] = i * i;
        Dict.Remove("k2");
        Dict.Remove("k5");
        Dict.Remove("k7");
        Dict["new"] = -1; // reuses a freed entry
        for (int i = 1; i <= 6; i++)
            Orders[i * 100] = i == 3 ? null : new Order { Number = i, Amount = i * 1.5m };
        Set.Remove(20);
        Set.Add(60);
        for (int i = 1; i <= 8; i++)
            Queue.Enqueue(i);
        for (int i = 0; i < 5; i++)
            Queue.Dequeue();
        for (int i = 9; i <= 12; i++)
            Queue.Enqueue(i); // wraps around the ring buffer
        foreach (var word in new[] { "bottom", "middle", null, "top" })
            Stack.Push(word);
        foreach (var n in new[] { 50, 10, 40, 20, 30, 60 })
            Sorted[n] = "v" + n;
        for (int i = 0; i < 40; i++)
            Concurrent[i * 7] = i % 5 == 0 ? null : "c" + i;
        for (int i = 0; i < 100; i++)
            ConcurrentQueue.Enqueue(i);
        for (int i = 0; i < 10; i++)
            ConcurrentQueue.TryDequeue(out _);
        for (int i = 0; i < 12; i++)
            Hashtable["h" + i] = i % 4 == 0 ? null : i;
        Hashtable.Remove("h3");
        Hashtable.Remove("h6");
    }
}
