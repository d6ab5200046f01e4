using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Which DAC reads a runtime: only one of the runtime's own build (the libcoreclr.so beside
/// the DAC has the target's ELF build id; ClrMD's file-version check where no build id is
/// known: ClrMD reports version 0.0 for a live self-contained runtime); a mismatched DAC gives wrong
/// answers instead of an error, so it is never loaded. For a live process the caller
/// passes the DAC beside the target's libcoreclr.so; for a dump, an explicit DAC is used
/// alone, else the candidates are tried in order: the DAC the dump records (beside its
/// libcoreclr.so, when that path exists here), then the caller's list (installed
/// runtimes, search folders).
/// </summary>
public static class DacChoice
{
    /// <summary>A runtime read with the first matching DAC, or a HeapTargetException naming
    /// the exact runtime build needed and every DAC that was tried.</summary>
    public static ClrRuntime CreateRuntime(ClrInfo info, IReadOnlyList<string> candidates, bool explicitDac,
        string description, string errorCode)
    {
        var tried = new List<string>();
        foreach (string dac in explicitDac ? candidates : Recorded(info).Concat(candidates).Distinct())
        {
            if (!File.Exists(dac))
            {
                tried.Add($"{dac} (missing)");
                continue;
            }
            if (Mismatch(info, dac) is string why)
            {
                tried.Add($"{dac} ({why})");
                continue;
            }
            try
            {
                return info.CreateRuntime(dac, ignoreMismatch: BuildIdKnown(info));
            }
            catch (Exception exc) when (exc is ClrDiagnosticsException or InvalidOperationException or IOException)
            {
                tried.Add($"{dac} ({exc.Message})");
            }
        }
        throw new HeapTargetException(errorCode, NoMatchMessage(info, tried, description));
    }

    private static bool BuildIdKnown(ClrInfo info) => !info.ModuleInfo.BuildId.IsDefaultOrEmpty;

    /// <summary>Why a DAC is not the runtime's, or null when it is: the libcoreclr.so beside
    /// it must have the target's build id. Without a build id (not seen on Linux) ClrMD's
    /// own check (file versions) decides.</summary>
    private static string? Mismatch(ClrInfo info, string dac)
    {
        if (!BuildIdKnown(info)) return null;
        string wanted = ElfBuildId.Hex(info.ModuleInfo.BuildId);
        string coreclr = Path.Combine(Path.GetDirectoryName(dac) ?? "", "libcoreclr.so");
        string? beside = ElfBuildId.Of(coreclr);
        if (beside is null) return $"no libcoreclr.so beside it to prove its build";
        return beside == wanted ? null : $"another runtime build: its libcoreclr.so has build id {beside}";
    }

    /// <summary>DAC paths ClrMD derives from the runtime module's recorded path.</summary>
    private static IEnumerable<string> Recorded(ClrInfo info) =>
        info.DebuggingLibraries
            .Where(lib => lib.Kind == DebugLibraryKind.Dac && Path.IsPathRooted(lib.FileName))
            .Select(lib => lib.FileName)
            .Append(Path.Combine(Path.GetDirectoryName(info.ModuleInfo.FileName) ?? "", "libmscordaccore.so"));

    private static string NoMatchMessage(ClrInfo info, List<string> tried, string description)
    {
        string runtime = info.ModuleInfo.FileName;
        string version = info.Version.Major == 0 ? "" : $" {info.Version}";
        return $"no DAC matching the .NET runtime of {description}: it needs libmscordaccore.so of the CoreCLR{version} build "
            + $"with build id {ElfBuildId.Hex(info.ModuleInfo.BuildId)} (recorded at {Path.GetDirectoryName(runtime)}). "
            + (tried.Count == 0 ? "No DAC was found to try. " : $"Tried: {string.Join("; ", tried)}. ")
            + "Pass that runtime's DAC with --dac PATH (dac= in the notebook), or name a folder holding it in "
            + "PYINSPECT_DAC_SEARCH_PATH (e.g. the runtime pack microsoft.netcore.app.runtime.linux-x64 of that version).";
    }
}
