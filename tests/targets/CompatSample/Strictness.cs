// Evaluation as C# rules it (CompatSample `strict`): an unqualified static method called
// from an instance method, a closure and a nested type, one of a base type too; a static field read through an instance
// (CS0176); a byte set to a uint literal (CS0266); sizeof of user structs.
namespace CompatSample;

public struct Pair
{
    public int A;
    public long B;
}

public struct Tiny
{
    public byte A;
    public byte B;
}

public class CounterBase
{
    protected static int BaseHelper(int n) => n + 1000;
}

public sealed class Counter : CounterBase
{
    public static int Created = 3;
    public byte Small = 7;
    private readonly int _count = 2;

    private static int Helper(int n) => n + 100;

    public int Run(int seed)
    {
        int offset = seed;
        Func<int, int> closure = n =>
        {
            int inner = n + offset + _count; // @bp strict_closure
            return inner;
        };
        Pair pair = new() { A = 1, B = 2 };
        Tiny tiny = new() { A = 3, B = 4 };
        byte small = Small;
        int result = closure(1) + pair.A + tiny.A + small; // @bp strict_instance
        return result + Nested.Twice(0);
    }

    private static class Nested
    {
        public static int Twice(int n)
        {
            int twice = n * 2; // @bp strict_nested
            return twice;
        }
    }
}
