using System.Globalization;

namespace PyInspect.Trace;

/// <summary>The recorder's command line; Error says what was wrong with it.</summary>
public sealed class RecorderOptions
{
    public int Pid { get; private set; }
    public bool Allocations { get; private set; }
    public bool Gc { get; private set; }
    /// <summary>The target has the randomized allocation sampling (.NET 10+): use it instead of AllocationTick.</summary>
    public bool RandomizedSampling { get; private set; }
    public double MaxSeconds { get; private set; } = 600;
    public int MaxTypes { get; private set; } = 50;
    public int MaxStacks { get; private set; } = 5;
    public string? File { get; private set; }
    /// <summary>The target's diagnostics socket as this process reaches it (through
    /// /proc/PID/root for a process in a container); without it, found by pid in our /tmp.</summary>
    public string? Socket { get; private set; }
    public string? Error { get; private set; }

    public static RecorderOptions Parse(string[] args)
    {
        var options = new RecorderOptions();
        for (int i = 0; i < args.Length; i++)
        {
            string? Next() => i + 1 < args.Length ? args[++i] : null;
            switch (args[i])
            {
                case "--pid": options.Pid = int.TryParse(Next(), out int pid) ? pid : 0; break;
                case "--allocations": options.Allocations = true; break;
                case "--gc": options.Gc = true; break;
                case "--randomized-sampling": options.RandomizedSampling = true; break;
                case "--max-seconds": options.MaxSeconds = double.TryParse(Next(), NumberStyles.Float, CultureInfo.InvariantCulture, out double s) ? s : 0; break;
                case "--max-types": options.MaxTypes = int.TryParse(Next(), out int t) ? t : 0; break;
                case "--max-stacks": options.MaxStacks = int.TryParse(Next(), out int k) ? k : 0; break;
                case "--file": options.File = Next(); break;
                case "--socket": options.Socket = Next(); break;
                default: options.Error = $"unknown argument {args[i]}"; return options;
            }
        }
        if (options.Pid <= 0) options.Error = "--pid must be a positive process id";
        else if (!options.Allocations && !options.Gc) options.Error = "record --allocations, --gc or both";
        else if (options.MaxSeconds <= 0 || options.MaxTypes <= 0 || options.MaxStacks <= 0)
            options.Error = "--max-seconds, --max-types and --max-stacks must be positive";
        return options;
    }
}
