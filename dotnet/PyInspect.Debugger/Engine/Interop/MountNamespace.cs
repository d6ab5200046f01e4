// Running one call inside a target's mount namespace, from a thread of its own.
// The DBI's transport opens the runtime's debugger pipes in the target's temp folder and its
// memory at /proc/<pid inside>/mem, and names the pipes by the pid and start time it reads
// from /proc/<pid inside>/stat (dotnet/runtime: debug/shared/dbgtransportsession.cpp,
// debug/debug-pal/unix/twowaypipe.cpp, the PAL's PAL_GetTransportPipeName): every one of
// those paths is right only in the target's own mount namespace (its /tmp, its /proc). A
// multi-threaded process cannot move into another mount namespace, but one thread can,
// after unsharing its filesystem attributes (setns(2)). The DBI threads that attach starts
// from that thread (its transport and event threads) inherit the namespace and keep the
// world the runtime sees; every other adapter thread stays in pyinspect's.
using System.Runtime.ExceptionServices;
using System.Runtime.InteropServices;

namespace PyInspect.Debugger.Engine;

internal static class MountNamespace
{
    private const int CloneFs = 0x00000200;
    private const int CloneNewNs = 0x00020000;
    private const int EPERM = 1;

    [DllImport("libc", SetLastError = true)]
    private static extern int unshare(int flags);

    [DllImport("libc", SetLastError = true)]
    private static extern int setns(int fd, int nstype);

    /// <summary>The action's result, computed on a new thread inside the mount namespace of
    /// the view's process; EngineException saying what is missing when it cannot enter.</summary>
    public static T RunInside<T>(TargetView view, Func<T> action)
    {
        Microsoft.Win32.SafeHandles.SafeFileHandle ns;
        try { ns = File.OpenHandle($"/proc/{view.ProcessId}/ns/mnt"); }
        catch (Exception exc) when (exc is IOException or UnauthorizedAccessException)
        {
            throw new EngineException($"cannot open the mount namespace of process {view.ProcessId}: {exc.Message}");
        }
        T? result = default;
        Exception? failure = null;
        using (ns)
        {
            var thread = new Thread(() =>
            {
                try
                {
                    Enter((int)ns.DangerousGetHandle(), view.ProcessId);
                    result = action();
                }
                catch (Exception exc) { failure = exc; }
            }) { IsBackground = true, Name = "in the target's mount namespace" };
            thread.Start();
            thread.Join();
        }
        if (failure is not null) ExceptionDispatchInfo.Throw(failure);
        return result!;
    }

    private static void Enter(int nsFd, int processId)
    {
        if (unshare(CloneFs) != 0)
            throw new EngineException($"unshare(CLONE_FS) failed: errno {Marshal.GetLastPInvokeError()}");
        if (setns(nsFd, CloneNewNs) == 0) return;
        int errno = Marshal.GetLastPInvokeError();
        throw new EngineException(errno == EPERM
            ? $"process {processId} runs in another mount namespace (a container): debugging it enters that namespace, "
              + "which needs CAP_SYS_ADMIN and CAP_SYS_CHROOT (run the debugger as root, or give the debug container those capabilities)"
            : $"entering the mount namespace of process {processId} failed: errno {errno}");
    }
}
