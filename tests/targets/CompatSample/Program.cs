// Usage: CompatSample <mode>
//   (none)     async Main: awaits, calls the overloads, the generic and the nested methods, prints `done`
//   values     stops at `values` with locals of several types, a [Flags] enum among them
//   captured   an async method whose local a lambda captured, stopped after an await at `captured`
//   hidden     calls a [DebuggerHidden] method holding the `hidden` line
//   nonuser    throws in user code; a [DebuggerNonUserCode] class catches it; then `after_nonuser`
//   crash      throws an exception nobody catches (the process dies of it)
//   nested     calls Nested.Helper.Run, whose file is Nested/Program.cs
//   cwd        prints its working directory as `cwd <path>`
//   await      AwaitSteps.Run: awaits of framework, step-through, non-user and user methods
//   lines      Statements.Run: multi-line statements
//   filters    throws and catches a NullReferenceException, an ArgumentNullException, an InvalidOperationException
//   async_crash an exception leaves async Main after an await
//   notmine    NotMine.Run: breakpoints in [DebuggerStepThrough] and [DebuggerNonUserCode] code
//   strict     Counter.Run: evaluation where C# is strict (statics, literals, sizeof)
using System.Diagnostics;

namespace CompatSample;

[Flags]
public enum Access
{
    append = 4,
    write = 2,
    read = 1,
}

public static class TextExtensions
{
    public static int WordCount(this string text) => text.Split(' ', StringSplitOptions.RemoveEmptyEntries).Length;
}

public class Outer
{
    public class Inner
    {
        public static int Deep(int n) => n * 3; // @bp deep
    }
}

[DebuggerNonUserCode]
public static class Guard
{
    public static void Run(Action action)
    {
        try { action(); }
        catch (InvalidOperationException e) { Console.WriteLine($"guarded {e.Message}"); }
    }
}

public static class Program
{
    public static async Task<int> Main(string[] args)
    {
        string mode = args.Length > 0 ? args[0] : ""; // @bp main_first
        switch (mode)
        {
            case "values": Values(); break;
            case "captured": Console.WriteLine($"captured {await Captured(5)}"); break;
            case "hidden": Console.WriteLine($"hidden {Hidden(2)}"); break;
            case "nonuser":
                Guard.Run(Throwing);
                Console.WriteLine("after nonuser"); // @bp after_nonuser
                break;
            case "crash": Throwing(); break;
            case "cwd": Console.WriteLine($"cwd {Environment.CurrentDirectory}"); break;
            case "nested": Console.WriteLine($"nested {Nested.Helper.Run(4)}"); break;
            case "await": Console.WriteLine($"await {await AwaitSteps.Run()}"); break;
            case "lines": Statements.Run(); break;
            case "filters": Failures.ThrowThree(); break;
            case "async_crash": await Failures.FailLater(); break; // @bp async_crash_await
            case "notmine": Console.WriteLine($"notmine {NotMine.Run()}"); break;
            case "strict": Console.WriteLine($"strict {new Counter().Run(5)}"); break;
            default:
                await Task.Delay(1);
                Console.WriteLine($"sum {Compute(1) + Compute(2, "ab") + Compute() + Echo<int>(4) + Outer.Inner.Deep(5)}");
                break;
        }
        Console.WriteLine("done");
        return 0;
    }

    public static int Compute() => 100; // @bp compute_none

    public static int Compute(int n) => n * 10; // @bp compute_int

    public static int Compute(int n, string s) => n + s.Length; // @bp compute_int_string

    public static T Echo<T>(T value) => value; // @bp echo

    private static void Values()
    {
        char varChar = 'a';
        char otherChar = 'z';
        int count = 7;
        long total = 3;
        double ratio = 0.5;
        Access access = Access.read | Access.write | Access.append;
        Access some = Access.append | Access.read;
        string phrase = "one two three";
        Console.WriteLine($"{varChar}{otherChar} {count} {total} {ratio} {access} {some} {phrase}"); // @bp values
        Console.WriteLine($"after {varChar} {count} {total} {ratio}"); // @bp values_after
    }

    private static async Task<int> Captured(int seed)
    {
        int mainVar = seed * 2; // @bp captured_start
        Func<int> read = () => mainVar + 1;
        await Task.Delay(1);
        mainVar += 1;
        Console.WriteLine($"read {read()}"); // @bp captured
        return mainVar;
    }

    [DebuggerHidden]
    private static int Hidden(int n)
    {
        int doubled = n * 2; // @bp hidden
        return doubled;
    }

    private static void Throwing() => throw new InvalidOperationException("from user code"); // @bp throwing
}
