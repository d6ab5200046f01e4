// Usage: InspectSample <mode>
//   props      stops at `props` with an Account whose properties compute, throw or spin
//   caught     throws and catches an InvalidOperationException, then reaches `after_catch`
//   unhandled  throws an ApplicationException (with an inner exception) nobody catches
//   functions  calls both Compute overloads and prints their sum
//   limit      sums 0..limit-1 for limit = 3 (changeable at `limit`) and prints the sum
//   hot        loops for a minute through `hot`, where Slow() takes 200 ms to answer
//   async      awaits a delay, a yield and a finished task between `async_*` lines, twice
//              at once (two state machines of one method, the first awaited by Caller), and
//              prints both results
//   async_throw  an async method throws after an await; Main catches it from the task
//   closure    stops at `closure` in a method whose locals a lambda captured, then inside the lambda
//   stepin     lines to step in from: property getters and an operator before a call, a
//              method marked DebuggerNonUserCode, an async method run to its result
using System.Diagnostics;

namespace InspectSample;

public readonly record struct Money(int Cents)
{
    public static Money operator +(Money a, Money b) => new(a.Cents + b.Cents); // @bp money_add
}

public class Account(string owner, int balance)
{
    private readonly int _balance = balance;
    public string Owner { get; set; } = owner;
    public int Balance => _balance;
    public string Description => $"{Owner} has {_balance}";
    public int Broken => throw new InvalidOperationException("broken getter");
    public int Forever
    {
        get
        {
            while (true) Thread.SpinWait(1000);
        }
    }
    public int Calls { get; private set; }
    public int NextCall() => ++Calls;
}

public static class Program
{
    public static int Main(string[] args)
    {
        string mode = args.Length > 0 ? args[0] : "props";
        switch (mode)
        {
            case "props": Props(); break;
            case "caught": Caught(); break;
            case "unhandled": Unhandled(); break;
            case "functions": Console.WriteLine($"sum {Compute(20) + Compute("abc")}"); break;
            case "limit": Limit(); break;
            case "hot": Hot(); break;
            case "closure": Closure(); break;
            case "stepin": StepIn(); break;
            case "async_throw":
                try { Failing().GetAwaiter().GetResult(); }
                catch (InvalidOperationException e) { Console.WriteLine($"caught in Main: {e.Message}"); }
                break;
            case "async": Console.WriteLine($"async {Task.WhenAll(Caller(), Steps(10)).GetAwaiter().GetResult().Sum()}"); break;
        }
        Console.WriteLine("done");
        return 0;
    }

    private static void Props()
    {
        var account = new Account("Ada", 120);
        var numbers = new List<int> { 4, 5, 6 };
        var ages = new Dictionary<string, int> { ["ann"] = 31, ["bob"] = 42, ["cy"] = 7 };
        ages.Remove("bob");
        ages["dee"] = 50;  // takes bob's freed entry: enumeration order ann, dee, cy
        var queue = new Queue<string>(["zero", "first"]);
        queue.Dequeue();
        queue.Enqueue("second");  // wraps around the two-slot buffer: head at 1
        var stack = new Stack<int>([1, 2, 3]);
        var tags = new HashSet<string> { "x", "y" };
        Console.WriteLine($"{account.Owner} {numbers.Count} {ages.Count} {queue.Count} {stack.Count} {tags.Count}"); // @bp props
        Console.WriteLine($"calls {account.Calls}"); // @bp props_after
    }

    private static void Caught()
    {
        try
        {
            Fail("caught on purpose");
        }
        catch (InvalidOperationException error)
        {
            Console.WriteLine($"caught {error.Message}");
        }
        Console.WriteLine("after catch"); // @bp after_catch
    }

    private static void Fail(string why) => throw new InvalidOperationException(why);

    private static void Unhandled()
    {
        try
        {
            Fail("the cause");
        }
        catch (InvalidOperationException inner)
        {
            throw new ApplicationException("nobody catches this", inner);
        }
    }

    public static int Compute(int x) => x * 2; // @bp compute_int

    public static int Compute(string s) => s.Length; // @bp compute_string

    public static int Slow()
    {
        Thread.Sleep(200);
        return 1;
    }

    private static void Hot()
    {
        var until = DateTime.UtcNow.AddMinutes(1);
        long turns = 0;
        while (DateTime.UtcNow < until)
            turns++; // @bp hot
        Console.WriteLine($"turns {turns}");
    }

    private static void Limit()
    {
        int limit = 3;
        int sum = 0; // @bp limit
        for (int i = 0; i < limit; i++) sum += i;
        Console.WriteLine($"sum {sum}");
    }

    private static async Task<int> Steps(int start)
    {
        int value = start; // @bp async_start
        await Task.Delay(50 * start);
        value += 1; // @bp async_after_delay
        await Task.Yield();
        value += 2; // @bp async_after_yield
        await Task.CompletedTask;
        value += 3; // @bp async_after_completed
        return value;
    }

    private static async Task Failing()
    {
        await Task.Yield();
        throw new InvalidOperationException("async failure"); // @bp async_throw
    }

    private static async Task<int> Caller()
    {
        int got = await Steps(1); // @bp async_caller
        return got;
    }

    private static void Closure() => new Scaler().Captures();

    private static void StepIn()
    {
        var account = new Account("Ada", 120);
        var fee = new Money(25);
        string text = Describe(account.Owner, fee + new Money(account.Balance)); // @bp stepin_filtered
        int hidden = NotMine(); // @bp stepin_nonuser
        int awaited = Doubled(hidden).GetAwaiter().GetResult(); // @bp stepin_async
        Console.WriteLine($"{text} {awaited}");
    }

    private static string Describe(string owner, Money money)
    {
        return $"{owner} pays {money.Cents}"; // @bp describe_body
    }

    [DebuggerNonUserCode]
    private static int NotMine()
    {
        return 7; // @bp nonuser_body
    }

    private static async Task<int> Doubled(int n)
    {
        int doubled = n * 2; // @bp doubled_first
        await Task.Yield();
        return doubled;
    }
}

public class Scaler
{
    private int _seed = 2;

    public void Captures()
    {
        int factor = 3;
        string label = "scaled";
        int plain = 4;
        Func<int, int> scale = n => n * factor + _seed; // @bp closure_lambda
        int result = scale(plain); // @bp closure
        int doubled = Twice(result); // @bp closure_local
        Console.WriteLine($"{label} {doubled}");

        static int Twice(int x) => x * 2;
    }
}
