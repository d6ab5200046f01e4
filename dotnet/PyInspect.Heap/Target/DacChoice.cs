using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Whether a DAC is the one of a runtime's build, decided before it is loaded (a mismatched
/// DAC gives wrong answers instead of an error, so it is never loaded): the DAC's own ELF
/// build id equals the one the runtime records for its DAC (the DotNetRuntimeInfo export of
/// libcoreclr.so); where the runtime records none, the libcoreclr.so beside the DAC (or
/// named with it) must have the target's libcoreclr.so build id. Where no build id is known
/// at all (not seen on Linux), ClrMD's own file-version check decides.
/// </summary>
public static class DacChoice
{
    /// <summary>A live process's runtime, read with the DAC beside its libcoreclr.so.</summary>
    public static ClrRuntime CreateRuntime(ClrInfo info, string dac, string description, string errorCode)
    {
        string? why = File.Exists(dac) ? Mismatch(info, DumpRuntime.BuildIds(info), dac, null) : "missing";
        if (why is null)
        {
            try
            {
                return info.CreateRuntime(dac, ignoreMismatch: BuildIdKnown(info));
            }
            catch (Exception exc) when (exc is ClrDiagnosticsException or InvalidOperationException or IOException)
            {
                why = exc.Message;
            }
        }
        throw new HeapTargetException(errorCode, $"cannot read the .NET runtime of {description}: its DAC {dac} does not serve ({why})");
    }

    public static bool BuildIdKnown(ClrInfo info) => !DumpRuntime.RuntimeBuildId(info).IsDefaultOrEmpty;

    /// <summary>Why a DAC is not the runtime's, or null when it is (see the class summary);
    /// coreclr names the libcoreclr.so that comes with it when it is not beside it.</summary>
    public static string? Mismatch(ClrInfo info, (string Coreclr, string? Dac) wanted, string dac, string? coreclr)
    {
        if (!BuildIdKnown(info)) return null;
        if (wanted.Dac is not null)
        {
            string? own = ElfBuildId.Of(dac);
            if (own == wanted.Dac) return null;
            return own is null ? "not an ELF file with a build id" : $"another runtime build: its build id is {own}";
        }
        coreclr ??= Path.Combine(Path.GetDirectoryName(dac) ?? "", DumpRuntime.CoreclrName);
        string? proof = ElfBuildId.Of(coreclr);
        if (proof is null) return "no libcoreclr.so beside it to prove its build";
        return proof == wanted.Coreclr ? null : $"another runtime build: its libcoreclr.so has build id {proof}";
    }

    /// <summary>Load a DAC already proved to match.</summary>
    public static ClrRuntime Load(ClrInfo info, string dac) => info.CreateRuntime(dac, ignoreMismatch: BuildIdKnown(info));
}
