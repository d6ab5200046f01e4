// The .NET runtime a target process runs on, read from /proc/PID/maps: the folder of its
// libcoreclr.so is where its own debugging libraries live (libmscordbi.so, the DBI;
// libmscordaccore.so, the DAC; createdump). A shared runtime of any installed version or a
// self-contained app's own folder: the adapter's runtime is never the target's.
// The one place that decides which DBI a target gets (pyinspect/targets/runtimes.py mirrors it
// for the DAC and createdump); .NET 11's universal DBI would be chosen here. A process in a
// container names its runtime folder in its own view: Folder is where the adapter reaches it
// (through /proc/PID/root, TargetView), TargetFolder the path the process itself uses.
using System.Globalization;

namespace PyInspect.Debugger.Engine;

/// <summary>Where a target's CoreCLR is loaded: its folder and base address in the target.</summary>
public sealed record TargetRuntime(int ProcessId, string Folder, nint CoreClrBase, string TargetFolder)
{
    private const string CoreClrName = "libcoreclr.so";
    private const string SharedRuntimeMarker = "/shared/Microsoft.NETCore.App/";

    /// <summary>A self-contained app carries its runtime in its own folder.</summary>
    public bool SelfContained => !Folder.Contains(SharedRuntimeMarker, StringComparison.Ordinal);

    /// <summary>The debugger library (DBI) that speaks this runtime's debugging protocol.</summary>
    public string DbiPath => Path.Combine(Folder, "libmscordbi.so");

    /// <summary>The DAC the DBI loads from beside itself.</summary>
    public string DacPath => Path.Combine(Folder, "libmscordaccore.so");

    public string Describe() => SelfContained
        ? $"self-contained runtime in {TargetFolder}"
        : $"shared runtime {Path.GetFileName(TargetFolder)} in {TargetFolder}";

    /// <summary>The runtime of a process, or an EngineException saying why there is none
    /// we can debug (no such process, no runtime loaded yet, several runtimes).</summary>
    public static TargetRuntime Of(TargetView view)
    {
        int processId = view.ProcessId;
        string maps;
        try { maps = File.ReadAllText($"/proc/{processId}/maps"); }
        catch (Exception exc) when (exc is IOException or UnauthorizedAccessException)
        {
            throw new EngineException($"process {processId} not found or not readable: {exc.Message}");
        }
        var found = CoreClrMappings(maps);
        if (found.Count == 0)
            throw new EngineException($"process {processId} has no .NET runtime (libcoreclr.so) loaded: not a .NET process, or its runtime has not started yet");
        if (found.Count > 1)
            throw new EngineException($"process {processId} has several .NET runtimes loaded ({string.Join(", ", found.Keys)}): debugging more than one runtime in a process is not supported");
        var (path, start) = found.First();
        string folder = Path.GetDirectoryName(path)!;
        var runtime = new TargetRuntime(processId, view.Reach(folder), start, folder);
        if (!File.Exists(runtime.DbiPath))
            throw new EngineException($"the target's runtime has no debugger library: {runtime.DbiPath} is missing ({runtime.Describe()})");
        return runtime;
    }

    /// <summary>Each libcoreclr.so path in the maps with its lowest mapping address.</summary>
    private static Dictionary<string, nint> CoreClrMappings(string maps)
    {
        var found = new Dictionary<string, nint>(StringComparer.Ordinal);
        foreach (string line in maps.Split('\n'))
        {
            int slash = line.IndexOf('/');
            if (slash < 0 || !line.EndsWith("/" + CoreClrName, StringComparison.Ordinal)) continue;
            string path = line[slash..];
            nint start = (nint)long.Parse(line[..line.IndexOf('-')], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            if (!found.TryGetValue(path, out nint known) || start < known) found[path] = start;
        }
        return found;
    }
}
