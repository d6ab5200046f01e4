// Starting a debuggee so that it waits for us: our startup hook holds it before Main
// until a debugger attaches, then Debugger.Break()s so breakpoints bind before user code.
// The debuggee never inherits the adapter's stdin (that is the DAP channel).
//
// The program runs under a waiting shell (`sh -c '"$@"; exit $?'`), not as the adapter's
// own child: libmscordbi watches the debuggee with waitpid, and when it reaps a child of
// ours first, .NET's Process never learns that it exited (seen about once in twenty
// launches: `exited` came 60 s late). The shell is reaped by .NET alone and exits with the
// program's status: its exit code, or 128+N after signal N.
using System.Diagnostics;

namespace PyInspect.Debugger.Engine;

/// <summary>What to launch: `Program` and `Cwd` absolute and existing (see LaunchPaths).</summary>
public sealed record LaunchRequest(string Program, IReadOnlyList<string> Args, string Cwd,
    IReadOnlyDictionary<string, string> Env);

/// <summary>A launched program: the shell waiting for it (exit code, output) and the program's own pid.</summary>
public sealed record LaunchedProgram(Process Waiter, int ProcessId);

public static class ProcessLauncher
{
    private const string HookFileName = "PyInspect.StartupHook.dll";

    /// <summary>Start the program with the hook (without it when it is not to be debugged:
    /// `withDebugger` false); output lines go to the two callbacks.</summary>
    public static LaunchedProgram Start(LaunchRequest request, Action<string> stdout, Action<string> stderr, bool withDebugger = true)
    {
        string program = request.Program;
        var info = new ProcessStartInfo
        {
            FileName = "/bin/sh",
            WorkingDirectory = request.Cwd,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        // The trailing `exit $?` keeps the shell from exec-ing the program in its place.
        foreach (string arg in (string[])["-c", "\"$@\"; exit $?", "pyinspect-debuggee"]) info.ArgumentList.Add(arg);
        LaunchPlan plan = LaunchPlan.For(program, DotnetHost);
        info.ArgumentList.Add(plan.Executable);
        foreach (string arg in plan.Prefix) info.ArgumentList.Add(arg);
        foreach (string arg in request.Args) info.ArgumentList.Add(arg);
        foreach (var (key, value) in request.Env) info.Environment[key] = value;
        if (withDebugger) info.Environment["DOTNET_STARTUP_HOOKS"] = HookPath();
        // A framework-dependent apphost finds its runtimes where the adapter's host lives.
        if (!info.Environment.ContainsKey("DOTNET_ROOT") && Path.GetDirectoryName(DotnetHost()) is { Length: > 0 } root)
            info.Environment["DOTNET_ROOT"] = root;
        if (withDebugger) info.Environment["PYINSPECT_WAIT_FOR_DEBUGGER"] = "1";

        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        process.OutputDataReceived += (_, e) => { if (e.Data is not null) stdout(e.Data + "\n"); };
        process.ErrorDataReceived += (_, e) => { if (e.Data is not null) stderr(e.Data + "\n"); };
        if (!process.Start()) throw new EngineException($"could not start {info.FileName}");
        process.StandardInput.Close();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        try
        {
            return new LaunchedProgram(process, ProgramUnder(process, TimeSpan.FromSeconds(10)));
        }
        catch
        {
            try { process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
            throw;
        }
    }

    /// <summary>The pid of the program the waiting shell started (its only child).</summary>
    private static int ProgramUnder(Process waiter, TimeSpan timeout)
    {
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < timeout)
        {
            if (waiter.HasExited)
                throw new EngineException($"the program could not be started (the shell exited with {waiter.ExitCode}; see its output)");
            if (ChildOf(waiter.Id) is int child) return child;
            Thread.Sleep(1);
        }
        throw new EngineException($"the program did not start within {timeout.TotalSeconds:0} s");
    }

    /// <summary>A child of the process: from /proc/PID/task/PID/children where the kernel has it,
    /// else the process whose parent (field 4 of /proc/N/stat) it is.</summary>
    private static int? ChildOf(int parent)
    {
        try
        {
            string children = File.ReadAllText($"/proc/{parent}/task/{parent}/children").Trim();
            return children.Length > 0 ? int.Parse(children.Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture) : null;
        }
        catch (IOException)
        {
            // No children file on this kernel (or the shell is ending): look at every process's parent.
        }
        foreach (string dir in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), out int pid)) continue;
            try
            {
                string stat = File.ReadAllText(Path.Combine(dir, "stat"));
                string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
                if (fields.Length > 1 && fields[1] == parent.ToString(System.Globalization.CultureInfo.InvariantCulture)) return pid;
            }
            catch (IOException)
            {
                // That process ended meanwhile.
            }
        }
        return null;
    }

    /// <summary>Wait until the runtime and our hook are loaded, the moment attach can succeed.</summary>
    public static void WaitForHook(LaunchedProgram launched, TimeSpan timeout)
    {
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < timeout)
        {
            if (launched.Waiter.HasExited)
                throw new EngineException($"the program exited with code {launched.Waiter.ExitCode} before it could be debugged");
            string maps;
            try { maps = File.ReadAllText($"/proc/{launched.ProcessId}/maps"); }
            catch (IOException) { maps = ""; }
            if (maps.Contains(HookFileName, StringComparison.Ordinal) && maps.Contains("libcoreclr.so", StringComparison.Ordinal))
                return;
            Thread.Sleep(5);
        }
        throw new EngineException($"the program did not reach the debugger hook within {timeout.TotalSeconds:0} s "
            + "(its runtime did not load PyInspect.StartupHook: startup hooks disabled, or a runtime older than .NET 8?)");
    }

    /// <summary>The hook ships beside the adapter: pyinspect/_dotnet/PyInspect.StartupHook/.</summary>
    private static string HookPath()
    {
        string adapterDir = AppContext.BaseDirectory;
        string path = Path.GetFullPath(Path.Combine(adapterDir, "..", "PyInspect.StartupHook", HookFileName));
        if (!File.Exists(path)) throw new EngineException($"startup hook missing: {path} (run python3 build.py)");
        return path;
    }

    /// <summary>The dotnet host running this adapter runs the debuggee too.</summary>
    private static string DotnetHost()
    {
        string? root = Environment.GetEnvironmentVariable("DOTNET_ROOT");
        string fromProcess = Environment.ProcessPath ?? "";
        if (Path.GetFileNameWithoutExtension(fromProcess) == "dotnet") return fromProcess;
        if (root is not null && File.Exists(Path.Combine(root, "dotnet"))) return Path.Combine(root, "dotnet");
        return "dotnet";
    }
}
