// Stepping around awaits (CompatSample `await`): a step in on an await of framework code, of
// a method the debugger steps through and of a non-user method lands on the next line; one on
// an await of a user method enters it; a step over its closing brace arrives back at the
// caller's await line. Task.WhenAll of user methods and an async void method too.
using System.Diagnostics;

namespace CompatSample;

public static class AwaitSteps
{
    private static readonly TaskCompletionSource<int> VoidDone = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public static async Task<int> Run()
    {
        await Task.Delay(10); // @bp await_delay
        int stepped = await StepThrough.Twice(2); // @bp await_step_through
        int library = await Library.Triple(3); // @bp await_non_user
        int mine = await Mine(4); // @bp await_mine
        // Mine's delay outlasts the start of Mine(6) and the await of WhenAll on a busy machine,
        // so a stop inside Mine(5) always has Run awaiting it through WhenAll's promise
        await Task.WhenAll(Mine(5, 300), Mine(6, 300)); // @bp await_when_all
        FireAndForget(7); // @bp await_void
        await VoidDone.Task; // @bp await_void_wait
        Console.WriteLine($"awaited {stepped + library + mine}"); // @bp await_last
        return stepped + library + mine;
    }

    private static async Task<int> Mine(int n, int delayMs = 5)
    { // @bp mine_open
        await Task.Delay(delayMs); // @bp mine_delay
        return n * 2; // @bp mine_return
    } // @bp mine_close

    private static async void FireAndForget(int n)
    { // @bp void_open
        await Task.Delay(5); // @bp void_delay
        Console.WriteLine($"async void {n}"); // @bp void_after
        VoidDone.SetResult(n);
    }
}

[DebuggerStepThrough]
public static class StepThrough
{
    public static async Task<int> Twice(int n)
    {
        await Task.Delay(5);
        return n * 2;
    }
}

[DebuggerNonUserCode]
public static class Library
{
    public static async Task<int> Triple(int n)
    {
        await Task.Delay(5); // @bp library_delay
        return n * 3;
    }
}
