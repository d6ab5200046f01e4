using System.Diagnostics;

/// <summary>
/// The runtime calls <c>StartupHook.Initialize()</c> (global namespace, by convention) before
/// Main for every assembly in DOTNET_STARTUP_HOOKS. When the adapter launched us with
/// PYINSPECT_WAIT_FOR_DEBUGGER=1, hold here until a debugger is attached, so breakpoints
/// are bound before user code runs; bounded by PYINSPECT_WAIT_FOR_DEBUGGER_MS (default
/// 30000) so a debuggee never hangs forever when the adapter dies. Once attached, one
/// Debugger.Break() hands the adapter a synchronous stop before Main: it binds the
/// breakpoints of `setBreakpoints` there and lets Main run at `configurationDone`.
/// </summary>
internal class StartupHook
{
    private const int DefaultWaitMilliseconds = 30000;
    private const int PollMilliseconds = 10;

    public static void Initialize()
    {
        if (Environment.GetEnvironmentVariable("PYINSPECT_WAIT_FOR_DEBUGGER") != "1")
            return;
        var budget = Stopwatch.StartNew();
        int limit = WaitLimitMilliseconds();
        while (!Debugger.IsAttached && budget.ElapsedMilliseconds < limit)
            Thread.Sleep(PollMilliseconds);
        if (Debugger.IsAttached)
            Debugger.Break();
    }

    private static int WaitLimitMilliseconds()
    {
        string? text = Environment.GetEnvironmentVariable("PYINSPECT_WAIT_FOR_DEBUGGER_MS");
        return int.TryParse(text, out int value) && value >= 0 ? value : DefaultWaitMilliseconds;
    }
}
