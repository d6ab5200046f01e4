// Starting a debuggee so that it waits for us: our startup hook holds it before Main
// until a debugger attaches, then Debugger.Break()s so breakpoints bind before user code.
// The debuggee never inherits the adapter's stdin (that is the DAP channel).
using System.Diagnostics;

namespace PyInspect.Debugger.Engine;

public sealed record LaunchRequest(string Program, IReadOnlyList<string> Args, string? Cwd,
    IReadOnlyDictionary<string, string> Env);

public static class ProcessLauncher
{
    private const string HookFileName = "PyInspect.StartupHook.dll";

    /// <summary>Start the program with the hook; output lines go to the two callbacks.</summary>
    public static Process Start(LaunchRequest request, Action<string> stdout, Action<string> stderr)
    {
        string program = Path.GetFullPath(request.Program, request.Cwd ?? Environment.CurrentDirectory);
        if (!File.Exists(program)) throw new EngineException($"program not found: {program}");
        var info = new ProcessStartInfo
        {
            FileName = program.EndsWith(".dll", StringComparison.OrdinalIgnoreCase) ? DotnetHost() : program,
            WorkingDirectory = request.Cwd ?? Path.GetDirectoryName(program)!,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (info.FileName != program) info.ArgumentList.Add(program);
        foreach (string arg in request.Args) info.ArgumentList.Add(arg);
        foreach (var (key, value) in request.Env) info.Environment[key] = value;
        info.Environment["DOTNET_STARTUP_HOOKS"] = HookPath();
        info.Environment["PYINSPECT_WAIT_FOR_DEBUGGER"] = "1";

        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        process.OutputDataReceived += (_, e) => { if (e.Data is not null) stdout(e.Data + "\n"); };
        process.ErrorDataReceived += (_, e) => { if (e.Data is not null) stderr(e.Data + "\n"); };
        if (!process.Start()) throw new EngineException($"could not start {info.FileName}");
        process.StandardInput.Close();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return process;
    }

    /// <summary>Wait until the runtime and our hook are loaded, the moment attach can succeed.</summary>
    public static void WaitForHook(Process process, TimeSpan timeout)
    {
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < timeout)
        {
            if (process.HasExited)
                throw new EngineException($"the program exited with code {process.ExitCode} before it could be debugged");
            string maps;
            try { maps = File.ReadAllText($"/proc/{process.Id}/maps"); }
            catch (IOException) { maps = ""; }
            if (maps.Contains(HookFileName, StringComparison.Ordinal) && maps.Contains("libcoreclr.so", StringComparison.Ordinal))
                return;
            Thread.Sleep(5);
        }
        throw new EngineException($"the program did not reach the debugger hook within {timeout.TotalSeconds:0} s");
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
