using System.Runtime.InteropServices;

namespace PyInspect.Heap;

/// <summary>
/// The threads a suspend=true attach stopped. ClrMD's Linux reader forgets its list of
/// traced threads on FlushCachedData and then detaches none on Dispose, leaving the
/// process stopped; we remember them at attach and detach each one ourselves (from the
/// same thread that attached, as ptrace requires). Detaching a thread no longer traced
/// fails harmlessly.
/// </summary>
internal sealed class SuspendedThreads
{
    private const int PtraceDetach = 17;
    private readonly List<int> _threadIds;

    private SuspendedThreads(List<int> threadIds) => _threadIds = threadIds;

    public static SuspendedThreads Of(int pid)
    {
        var ids = new List<int>();
        foreach (var dir in Directory.EnumerateDirectories($"/proc/{pid}/task"))
            if (int.TryParse(Path.GetFileName(dir), out int tid))
                ids.Add(tid);
        return new SuspendedThreads(ids);
    }

    public void DetachAll()
    {
        foreach (int tid in _threadIds)
            ptrace(PtraceDetach, tid, IntPtr.Zero, IntPtr.Zero);
        _threadIds.Clear();
    }

    [DllImport("libc", SetLastError = true)]
    private static extern IntPtr ptrace(int request, int pid, IntPtr addr, IntPtr data);
}
