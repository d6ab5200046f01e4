// Getters a read-only evaluation must not run: each one that runs moves SideEffects.Count,
// so a test reads the counter from memory and knows whether it ran. Then getters that
// throw, and getters that never end (the interpreter's instruction budget).
namespace GetterTruth;

public static class SideEffects
{
    /// <summary>Moved by every getter below that changes something; the program itself never reads them.</summary>
    public static int Count;
}

public sealed class Tracker
{
    private readonly object _gate = new();
    private int _hits = 5;
    private string _cache;

    /// <summary>A store into a static, and nothing else.</summary>
    public int Touch
    {
        get
        {
            SideEffects.Count++;
            return _hits;
        }
    }

    /// <summary>A setter-like getter: stores into its own object first.</summary>
    public int Bump
    {
        get
        {
            _hits++;
            SideEffects.Count++;
            return _hits;
        }
    }

    /// <summary>A lazy cache: the first read stores into the object (the cache is empty at the stop).</summary>
    public string Cached => _cache ??= Build();

    private static string Build()
    {
        SideEffects.Count++;
        return "built";
    }

    /// <summary>I/O first: writes a line to the console, then counts.</summary>
    public string Logged
    {
        get
        {
            Console.WriteLine("Tracker.Logged ran");
            SideEffects.Count++;
            return "logged";
        }
    }

    /// <summary>Takes a lock first, then counts.</summary>
    public int Locked
    {
        get
        {
            lock (_gate)
            {
                SideEffects.Count++;
                return _hits;
            }
        }
    }
}

/// <summary>A class whose static constructor has not run at the stop: its getter reads a
/// static the constructor sets, so reading it without running the constructor answers 0, and
/// running it (func-eval) runs the constructor, which counts.</summary>
public static class NeverTouched
{
    private static readonly int _answer;

    static NeverTouched()
    {
        SideEffects.Count++;
        _answer = 42;
    }

    public static int Answer => _answer;
}

public sealed class Thrower
{
    private readonly string _missing = null;
    private readonly int[] _three = [1, 2, 3];
    private readonly List<int> _list = [1, 2];
    private readonly int? _nothing = null;

    public int Broken => throw new InvalidOperationException("broken on purpose");
    public int NullLength => _missing.Length;            // NullReferenceException
    public int Tenth => _three[10];                      // IndexOutOfRangeException
    public int FifthOfList => _list[5];                  // ArgumentOutOfRangeException from List's indexer
    public int MissingValue => _nothing.Value;           // InvalidOperationException from Nullable<int>.Value
    public int Quotient => _three[0] / (_three[1] - 2);  // DivideByZeroException
}

public sealed class Spinner
{
    private int _limit = int.MaxValue;

    /// <summary>Never returns.</summary>
    public int Forever
    {
        get
        {
            int n = 0;
            while (true) n = (n + 1) % 7;
        }
    }

    /// <summary>Returns, after about two billion iterations: longer than any budget.</summary>
    public long VeryLong
    {
        get
        {
            long sum = 0;
            for (int i = 0; i < _limit; i++) sum += i & 1;
            return sum;
        }
    }
}

/// <summary>The hot loop's items: one pure getter and one that counts each call.</summary>
public sealed class Item(int id)
{
    public int Id = id;
    public bool IsMultipleOfSeven => Id % 7 == 0;

    public int CountedId
    {
        get
        {
            SideEffects.Count++;
            return Id;
        }
    }
}

/// <summary>NeverTouched as a generic type: the statics of NeverTouchedOf&lt;int&gt; are their own
/// (the instantiation's static constructor has not run at the stop), read through the instantiation.</summary>
public static class NeverTouchedOf<T>
{
    private static readonly int _answer;

    static NeverTouchedOf()
    {
        SideEffects.Count++;
        _answer = 42;
    }

    public static int Answer => _answer;
}

public sealed class GenericStatics
{
    public int Untouched => NeverTouchedOf<int>.Answer;
}
