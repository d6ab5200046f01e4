// Creating an ICorDebug for one target process without dbgshim: load the target runtime's
// libmscordbi.so (TargetRuntime decides which), run its DllMain (PAL initialisation, without which Initialize crashes),
// then CoreCLRCreateCordbObjectEx with libcoreclr's base address inside the target.
using System.Runtime.InteropServices;
using System.Runtime.InteropServices.Marshalling;

namespace PyInspect.Debugger.Engine;

public static unsafe class CordbFactory
{
    private const int CorDebugVersion4 = 4;
    private static readonly Dictionary<string, nint> s_dbiByPath = new(StringComparer.Ordinal);
    private static readonly object s_loadLock = new();

    public static readonly StrategyBasedComWrappers ComWrappers = new();

    /// <summary>An initialised ICorDebug for the process, made by the DBI of the process's own
    /// runtime (a DBI speaks one runtime's protocol: another version's fails or crashes).</summary>
    /// <remarks>For a process in other namespaces (a container) the DBI is loaded through the
    /// process's root and given the pid the runtime has inside (its pipes are named by it);
    /// its DAC is loaded here too, by the path the DBI will ask for, because the DBI asks
    /// from inside the target's mount namespace (MountNamespace), where that path does not exist.</remarks>
    public static ICorDebug Create(TargetView view)
    {
        if (view.NamespacePid != view.ProcessId && !view.OtherMountNamespace)
            throw new EngineException($"process {view.ProcessId} has pid {view.NamespacePid} in its own pid namespace but shares "
                + "the debugger's mount namespace: its runtime's pipes and /proc entries name a pid this /proc numbers otherwise "
                + "(not supported; a container with its own mount namespace works)");
        TargetRuntime runtime = TargetRuntime.Of(view);
        nint dbi = view.OtherMountNamespace ? LoadDbiWithTemp(runtime.DbiPath, view.TempFolder) : LoadDbi(runtime.DbiPath);
        if (view.OtherMountNamespace) PreloadDac(runtime);
        var create = (delegate* unmanaged<int, uint, nint, nint, nint*, int>)
            NativeLibrary.GetExport(dbi, "CoreCLRCreateCordbObjectEx");
        nint unknown;
        int hr = create(CorDebugVersion4, (uint)view.NamespacePid, 0, runtime.CoreClrBase, &unknown);
        EngineException.ThrowIfFailed(hr, $"CoreCLRCreateCordbObjectEx ({runtime.DbiPath})");
        var cordb = (ICorDebug)ComWrappers.GetOrCreateObjectForComInstance(unknown, CreateObjectFlags.None);
        Marshal.Release(unknown);
        EngineException.ThrowIfFailed(cordb.Initialize(), "ICorDebug.Initialize");
        return cordb;
    }

    /// <summary>The DBI's PAL names the pipes in $TMPDIR: for a process in a container that is
    /// the process's own temp folder. Set in the adapter's native environment before the DBI
    /// initialises and left so (the adapter debugs one process; the processes it launches get
    /// .NET's own copy of the environment, not this one).</summary>
    private static nint LoadDbiWithTemp(string path, string tempFolder)
    {
        setenv("TMPDIR", tempFolder.TrimEnd('/') + "/", 1);
        return LoadDbi(path);
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int setenv(string name, string value, int overwrite);

    private static void PreloadDac(TargetRuntime runtime)
    {
        try { NativeLibrary.Load(runtime.DacPath); }
        catch (DllNotFoundException exc) { throw new EngineException($"cannot load the target runtime's DAC {runtime.DacPath}: {exc.Message}"); }
    }

    /// <summary>Load (once per path) and PAL-initialise one runtime's libmscordbi.so.</summary>
    private static nint LoadDbi(string path)
    {
        lock (s_loadLock)
        {
            if (s_dbiByPath.TryGetValue(path, out nint loaded)) return loaded;
            nint handle;
            try { handle = NativeLibrary.Load(path); }
            catch (DllNotFoundException exc) { throw new EngineException($"cannot load the debugger library {path}: {exc.Message}"); }
            var dllMain = (delegate* unmanaged<nint, int, nint, int>)NativeLibrary.GetExport(handle, "DllMain");
            dllMain(handle, 1, 0); // DLL_PROCESS_ATTACH
            s_dbiByPath[path] = handle;
            return handle;
        }
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
