// Creating an ICorDebug for one target process without dbgshim: load the runtime's
// libmscordbi.so, run its DllMain (PAL initialisation, without which Initialize crashes),
// then CoreCLRCreateCordbObjectEx with libcoreclr's base address inside the target.
using System.Globalization;
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

public static unsafe class CordbFactory
{
    private const int CorDebugVersion4 = 4;
    private static nint s_dbi;
    private static readonly object s_loadLock = new();

    public static readonly StrategyBasedComWrappers ComWrappers = new();

    /// <summary>An initialised ICorDebug for the process, or an EngineException.</summary>
    public static ICorDebug Create(int processId)
    {
        nint dbi = LoadDbi();
        nint coreclrBase = FindCoreClrBase(processId)
            ?? throw new EngineException($"process {processId} has no .NET runtime (libcoreclr.so) loaded");
        var create = (delegate* unmanaged<int, uint, nint, nint, nint*, int>)
            NativeLibrary.GetExport(dbi, "CoreCLRCreateCordbObjectEx");
        nint unknown;
        int hr = create(CorDebugVersion4, (uint)processId, 0, coreclrBase, &unknown);
        EngineException.ThrowIfFailed(hr, "CoreCLRCreateCordbObjectEx");
        var cordb = (ICorDebug)ComWrappers.GetOrCreateObjectForComInstance(unknown, CreateObjectFlags.None);
        Marshal.Release(unknown);
        EngineException.ThrowIfFailed(cordb.Initialize(), "ICorDebug.Initialize");
        return cordb;
    }

    private static nint LoadDbi()
    {
        lock (s_loadLock)
        {
            if (s_dbi != 0) return s_dbi;
            string path = Path.Combine(RuntimeEnvironment.GetRuntimeDirectory(), "libmscordbi.so");
            nint handle = NativeLibrary.Load(path);
            var dllMain = (delegate* unmanaged<nint, int, nint, int>)NativeLibrary.GetExport(handle, "DllMain");
            dllMain(handle, 1, 0); // DLL_PROCESS_ATTACH
            s_dbi = handle;
            return handle;
        }
    }

    /// <summary>Lowest mapping of libcoreclr.so in /proc/PID/maps, or null.</summary>
    public static nint? FindCoreClrBase(int processId)
    {
        string maps;
        try { maps = File.ReadAllText($"/proc/{processId}/maps"); }
        catch (IOException) { return null; }
        catch (UnauthorizedAccessException) { return null; }
        foreach (string line in maps.Split('\n'))
        {
            if (!line.EndsWith("/libcoreclr.so", StringComparison.Ordinal)) continue;
            string start = line[..line.IndexOf('-')];
            return (nint)long.Parse(start, NumberStyles.HexNumber, CultureInfo.InvariantCulture);
        }
        return null;
    }
}

/// <summary>A failed ICorDebug call, with the call's name and HRESULT.</summary>
public sealed class EngineException(string message) : Exception(message)
{
    public static void ThrowIfFailed(int hr, string call)
    {
        if (hr < 0) throw new EngineException($"{call} failed: 0x{hr:X8}{Explain(hr)}");
    }

    private static string Explain(int hr) => unchecked((uint)hr) switch
    {
        0x80131C08 => " (CORDBG_E_TIMEOUT: the runtime did not answer the attach handshake)",
        0x80131C0E => " (CORDBG_E_PROCESS_TERMINATED)",
        0x80131302 => " (CORDBG_E_PROCESS_NOT_SYNCHRONIZED: the process is running)",
        _ => "",
    };
}
