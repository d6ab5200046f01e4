using System.Text;
using System.Text.RegularExpressions;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// What a target records of its runtime, all a DAC lookup needs: the build id of its
/// libcoreclr.so (the key SOS uses), the build id of the DAC of that build where the runtime
/// records it (its DotNetRuntimeInfo export), the product version (for the runtime pack) and
/// the runtime identifier (linux-x64, linux-musl-arm64...).
/// </summary>
public sealed partial record DumpRuntime(string CoreclrBuildId, string? DacBuildId, string? Version, string VersionFrom,
    string Rid, string RecordedFolder)
{
    public const string DacName = "libmscordaccore.so";
    public const string CoreclrName = "libcoreclr.so";

    public static DumpRuntime Of(DataTarget target, ClrInfo info)
    {
        var (coreclr, dac) = BuildIds(info);
        var (version, from) = VersionOf(target, info);
        return new DumpRuntime(coreclr, dac, version, from, RidOf(target), Path.GetDirectoryName(info.ModuleInfo.FileName) ?? "");
    }

    /// <summary>The build ids of the runtime's libcoreclr.so and, where it records it, of its DAC.</summary>
    public static (string Coreclr, string? Dac) BuildIds(ClrInfo info)
    {
        var dacSelf = info.DebuggingLibraries.FirstOrDefault(lib => lib.Kind == DebugLibraryKind.Dac
            && lib.ArchivedUnder == SymbolProperties.Self && !lib.IndexBuildId.IsDefaultOrEmpty);
        return (ElfBuildId.Hex(RuntimeBuildId(info)), dacSelf is null ? null : ElfBuildId.Hex(dacSelf.IndexBuildId));
    }

    /// <summary>The runtime's own build id: ClrInfo's (a single-file app's ModuleInfo is the
    /// app's executable), else its module's.</summary>
    public static System.Collections.Immutable.ImmutableArray<byte> RuntimeBuildId(ClrInfo info) =>
        info.BuildId.IsDefaultOrEmpty ? info.ModuleInfo.BuildId : info.BuildId;

    public (string Coreclr, string? Dac) Wanted => (CoreclrBuildId, DacBuildId);

    /// <summary>The product version (8.0.31): a shared runtime's folder name; else the
    /// "@(#)Version 8.0.3126.42015" stamp the runtime build embeds (its third part is
    /// patch * 100 + a build counter), read from the libcoreclr.so image in the target's memory:
    /// ClrMD reports 0.0 for a self-contained runtime.</summary>
    private static (string? Version, string From) VersionOf(DataTarget target, ClrInfo info)
    {
        string folder = Path.GetFileName(Path.GetDirectoryName(info.ModuleInfo.FileName) ?? "");
        if (info.ModuleInfo.FileName.Contains("/shared/Microsoft.NETCore.App/") && ProductVersion().IsMatch(folder))
            return (folder, "the shared runtime folder the dump records");
        string? stamp = VersionStamp(target.DataReader, info.ModuleInfo.ImageBase, info.ModuleInfo.ImageSize);
        if (stamp is not null && Stamp().Match(stamp) is { Success: true } m)
            return ($"{m.Groups[1].Value}.{m.Groups[2].Value}.{int.Parse(m.Groups[3].Value) / 100}",
                $"the runtime's version stamp {stamp} in the dump");
        if (info.Version.Major > 0)
            return ($"{info.Version.Major}.{info.Version.Minor}.{info.Version.Build / 100}", $"ClrMD's version {info.Version}");
        return (null, "no version found in the dump");
    }

    private static string? VersionStamp(IDataReader reader, ulong start, long size)
    {
        byte[] marker = "@(#)Version "u8.ToArray();
        var chunk = new byte[1 << 20];
        for (ulong offset = 0; offset < (ulong)size; offset += (ulong)(chunk.Length - 128))
        {
            int read = reader.Read(start + offset, chunk);
            if (read <= 0) continue;
            int at = chunk.AsSpan(0, read).IndexOf(marker);
            if (at < 0) continue;
            int end = Math.Min(read, at + 120);
            string text = Encoding.ASCII.GetString(chunk, at + marker.Length, end - at - marker.Length);
            return text.Split('\0', ' ')[0];
        }
        return null;
    }

    /// <summary>linux-[musl-]x64|arm64|arm: musl when the target loaded musl's dynamic loader.</summary>
    private static string RidOf(DataTarget target)
    {
        bool musl = target.EnumerateModules().Any(m => Path.GetFileName(m.FileName).StartsWith("ld-musl", StringComparison.Ordinal));
        string arch = target.DataReader.Architecture switch
        {
            System.Runtime.InteropServices.Architecture.Arm64 => "arm64",
            System.Runtime.InteropServices.Architecture.Arm => "arm",
            _ => "x64",
        };
        return musl ? $"linux-musl-{arch}" : $"linux-{arch}";
    }

    public string Describe() =>
        $"the CoreCLR {Version ?? "(version unknown)"} build with build id {CoreclrBuildId}"
        + (DacBuildId is null ? "" : $" (its DAC has build id {DacBuildId})");

    [GeneratedRegex(@"^\d+\.\d+\.\d+(-[0-9A-Za-z.\-]+)?$")]
    private static partial Regex ProductVersion();

    [GeneratedRegex(@"^(\d+)\.(\d+)\.(\d+)\.\d+$")]
    private static partial Regex Stamp();
}
