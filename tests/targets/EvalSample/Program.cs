using System.Text.Json;

namespace EvalSample;

public enum Status { Pending, Shipped, Cancelled }

[Flags]
public enum Access { None = 0, Read = 1, Write = 2, Exec = 4 }

public struct Point(int x, int y)
{
    public int X = x;
    public int Y = y;
    public readonly int Sum => X + Y;
}

public class Customer
{
    public string Name { get; set; } = "";
    public string? Email;
}

public class Order
{
    public int Id { get; set; }
    public decimal Total { get; set; }
    public double Weight;
    public Status Status { get; set; }
    public Customer? Customer { get; set; }
    public List<string> Tags { get; } = [];
    public static int Reads;
    public string Label => $"#{Id}:{Status}";
    public int Counted => ++Reads;
    public int Throws => throw new InvalidOperationException("no label here");
    public int Forever { get { while (true) { Thread.SpinWait(100); } } }
    public decimal WithTax(decimal rate) => Total * (1 + rate);
    public decimal TotalByGetter => Total;  // the same value, but a getter only func-eval runs
    public int Add(int a, int b) => a + b + Id;
    public string Describe(string prefix) => prefix + Id;
    public override string ToString() => $"Order {Id}";
}

public static class Config
{
    public static int MaxItems = 50;
    public const string Name = "eval";
    public static string Greeting { get; } = "hi";
    public static int Twice(int x) => 2 * x;
    public static bool Above(int x, int limit) => x > limit;
    public static T Echo<T>(T value) => value;
    public static T FirstOf<T>(List<T> items) => items[0];
    public static int Bump(ref int x) { x += 5; return x * 2; }
    public static bool TrySplit(string text, out string head, out int length)
    {
        head = text.Length > 0 ? text[..1] : null;
        length = text.Length;
        return text.Length > 0;
    }
}

public class Grid
{
    public int this[int row, int column] => row * 10 + column;
    public string this[string name] => "cell " + name;
}

public abstract class Creature
{
    public abstract int Age { get; }
}

public class Animal(string name) : Creature
{
    public override int Age => 3;
    public string Name { get; } = name;
    protected int legs = 4;
    public string Kind => "animal";
    public virtual string Sound => "...";
    public virtual string Speak() => $"{Name} makes a sound";
    public string Greet(string who) => $"{Name} greets {who}";
    public virtual string Eat(string food, int grams) => $"{Name} eats {grams} g of {food}";
    public int touches;
    public virtual void Touch() => touches += 1;
    public static string Family() => "animals";
}

public class Dog(string name) : Animal(name)
{
    private new int legs = 3;
    public new string Kind => "dog";
    public override string Sound => "woof";
    public override string Speak() => $"{Name} barks";
    public override string Eat(string food, int grams) => "dogs eat anything";
    public override void Touch() => touches += 10;
    public override int Age => 5;
    public static Func<int, int> Doubler { get; } = x => 2 * x;
    public static int Apply(Func<int, int> f, int x) => f(x);

    public string Describe()
    {
        var scores = new Dictionary<string, int> { ["rex"] = 7 };
        string said = Speak() + " on " + legs + " legs";
        return said + " " + base.Kind + " " + scores.Count + " " + Doubler(1); // @bp base
    }
}

public static class OrderExtensions
{
    public static bool IsBig(this Order order) => order.Total > 100;
}

public class Program
{
    private static int counter = 3;
    private readonly int instanceField = 11;
    private string Title { get; } = "prog";

    public static void Main(string[] args)
    {
        new Program().Run(args[0]);
        Console.WriteLine(new Dog("Rex").Describe());
        Loop(args.Length > 1 ? int.Parse(args[1]) : 10);
    }

    private static List<Order> MakeOrders()
    {
        var alice = new Customer { Name = "Alice", Email = "a@x.org" };
        var bob = new Customer { Name = "Bob" };
        var orders = new List<Order>
        {
            new() { Id = 1, Total = 50m, Weight = 1.5, Status = Status.Pending, Customer = alice },
            new() { Id = 2, Total = 150m, Weight = 2.25, Status = Status.Shipped, Customer = bob },
            new() { Id = 3, Total = 99.5m, Weight = 0.5, Status = Status.Cancelled },
            new() { Id = 4, Total = 300m, Weight = 10, Status = Status.Shipped, Customer = alice },
            new() { Id = 5, Total = 20m, Weight = 3, Status = Status.Pending, Customer = bob },
        };
        orders[1].Tags.Add("gift");
        orders[1].Tags.Add("express");
        return orders;
    }

    private void Run(string truthPath)
    {
        List<Order> orders = MakeOrders();
        Order[] array = [.. orders];
        int[] numbers = [5, 3, 8, 1];
        int[,] grid = { { 1, 2, 3 }, { 4, 5, 6 } };
        var prices = new Dictionary<string, decimal> { ["apple"] = 1.5m, ["pear"] = 2.25m };
        var ids = new HashSet<int> { 7, 8, 9 };
        int count = 42;
        long big = 1L << 40;
        double ratio = 2.5;
        float small = 0.5f;
        byte b = 200;
        short sh = -5;
        uint u = 4000000000;
        char letter = 'x';
        bool flag = true;
        string text = "Hello";
        string? nothing = null;
        int? maybe = 7;
        int? none = null;
        Status status = Status.Shipped;
        Access access = Access.Read | Access.Write;
        Point point = new(3, 4);
        object boxed = orders[0];
        var cells = new Grid();
        int[] many = Enumerable.Range(0, 150_000).ToArray();
        var manyOrders = Enumerable.Range(0, 20_000).Select(i => new Order { Id = i, Total = i % 500 }).ToList();
        Config.MaxItems += counter;
        List<int> million = Enumerable.Range(0, 1_000_000).ToList();
        var bulkOrders = Enumerable.Range(0, 10_000).Select(i => new Order { Id = i, Total = i / 3m + 0.01m * (i % 997) }).ToList();
        string probe = truthPath + ".probe";
        Func<int, int> twice = x => 2 * x;
        var truth = new Dictionary<string, object?>
        {
            ["bigTotal"] = orders.Where(o => o.Total > 100).Sum(o => o.Total),
            ["averageWeight"] = orders.Average(o => o.Weight),
            ["intDivision"] = count / 5,
            ["mixed"] = count * ratio + b,
            ["uintPlusInt"] = u + count,
            ["shifted"] = big >> 3,
            ["charMath"] = letter + 1,
            ["concat"] = text + count + flag,
            ["withTax"] = orders[1].WithTax(0.1m),
            ["names"] = string.Join(",", orders.OrderByDescending(o => o.Total).Select(o => o.Id)),
            ["bulkSum"] = bulkOrders.Sum(o => o.Total).ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["bulkAverage"] = bulkOrders.Average(o => o.Total).ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["millionCount"] = million.Where(x => x > 49990).Count(),
        };
        File.WriteAllText(truthPath, JsonSerializer.Serialize(truth));
        Console.WriteLine($"{orders.Count} {array.Length} {numbers[0]} {grid[0, 0]} {prices.Count} {ids.Count} {sh} {small} {nothing} {maybe} {none} {status} {access} {point.X} {boxed} {cells} {many.Length} {manyOrders.Count} {instanceField} {Title} {counter} {twice(1)}"); // @bp eval
        // The program's own account of its state once resumed: what evaluations changed.
        File.WriteAllText(truthPath + ".after", JsonSerializer.Serialize(new Dictionary<string, object?>
        {
            ["orders"] = orders.Count, ["firstId"] = orders[0].Id, ["reads"] = Order.Reads,
            ["probeExists"] = File.Exists(probe), ["million"] = million.Count, ["bulkOrders"] = bulkOrders.Count,
        }));
    }

    private static void Loop(int rounds)
    {
        int total = 0;
        for (int i = 0; i < rounds; i++)
        {
            string name = "item" + i;
            total += i; // @bp loop
        }
        Console.WriteLine(total); // @bp after
    }
}
