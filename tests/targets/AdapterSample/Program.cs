// Usage: AdapterSample [truth.json] [exitCode]
using System.Runtime.CompilerServices;
using System.Text.Json;

namespace AdapterSample;

public enum Color { Red, Green = 5, Blue }

[Flags]
public enum Access { None = 0, Read = 1, Write = 2 }

public struct Point
{
    public int X;
    public int Y;
}

public class Animal
{
    public string Name { get; set; } = "";
    protected int legs = 4;
}

public class Dog : Animal
{
    public int Age;
    public Dog? Friend;
    public Point Home;
}

public static class Program
{
    public static int Main(string[] args)
    {
        string truthPath = args.Length > 0 ? args[0] : "";
        int exitCode = args.Length > 1 ? int.Parse(args[1]) : 0;
        int count = 42;
        long big = 1234567890123L;
        double ratio = 3.5;
        float small = 0.25f;
        bool flag = true;
        char letter = 'c';
        string text = "hello \"world\"";
        string unicode = "héllo wörld ✓";
        string? nothing = null;
        int[] numbers = { 1, 2, 3 };
        int[,] grid = { { 1, 2, 3 }, { 4, 5, 6 } };
        int[][] jagged = { new[] { 1 }, new[] { 2, 3 } };
        var list = new List<int> { 10, 20, 30 };
        var point = new Point { X = 7, Y = -8 };
        Color color = Color.Green;
        Access access = Access.Read | Access.Write;
        int? maybe = 5;
        int? none = null;
        decimal price = 12.34m;
        var when = new DateTime(2024, 1, 2, 3, 4, 5);
        var id = Guid.Parse("01234567-89ab-cdef-0123-456789abcdef");
        var dog = new Dog { Name = "Rex", Age = 3, Home = point };
        dog.Friend = dog;
        bool noGc = GC.TryStartNoGCRegion(16L * 1024 * 1024);
        WriteTruth(truthPath, dog, numbers, text);
        Console.WriteLine("locals ready"); // @bp locals
        if (noGc && System.Runtime.GCSettings.LatencyMode == System.Runtime.GCLatencyMode.NoGCRegion)
            GC.EndNoGCRegion();
        int total = Chain.Outer(3); // @bp call
        for (int i = 0; i < 10; i++)
        {
            total += i; // @bp loop
        }
        Console.Error.WriteLine($"total {total}");
        GC.KeepAlive(new object[] { count, big, ratio, small, flag, letter, unicode, nothing ?? "", grid, jagged, list,
            color, access, maybe ?? 0, none ?? 0, price, when, id });
        return exitCode; // @bp exit
    }

    private static unsafe void WriteTruth(string path, Dog dog, int[] numbers, string text)
    {
        if (path.Length == 0) return;
        var truth = new Dictionary<string, ulong>
        {
            ["dog"] = AddressOf(dog),
            ["numbers"] = AddressOf(numbers),
            ["text"] = AddressOf(text),
        };
        File.WriteAllText(path, JsonSerializer.Serialize(truth));
    }

    private static unsafe ulong AddressOf(object obj) => (ulong)*(IntPtr*)Unsafe.AsPointer(ref obj);
}

public static class Chain
{
    public static int Outer(int n)
    {
        int doubled = Middle(n) * 2; // @bp outer
        return doubled;
    }

    private static int Middle(int n)
    {
        return Inner(n) + 1; // @bp middle
    }

    private static int Inner(int n)
    {
        int result = n * 10; // @bp inner
        return result;
    }
}
