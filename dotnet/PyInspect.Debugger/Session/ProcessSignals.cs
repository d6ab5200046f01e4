// Ending a debuggee the way a user's Ctrl+C would: SIGTERM lets it run its shutdown (a web
// host stops serving, flushes logs); SIGKILL only when it has not gone after a short grace.
using System.Diagnostics;
using System.Runtime.InteropServices;

namespace PyInspect.Debugger.Session;

public static partial class ProcessSignals
{
    public static readonly TimeSpan Grace = TimeSpan.FromSeconds(2);
    private const int SigTerm = 15;
    private const int SigKill = 9;

    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static partial int Kill(int pid, int signal);

    /// <summary>SIGTERM now; SIGKILL if it is still there after the grace. Waits for neither.
    /// A killed runtime's debugger pipes and diagnostics socket are removed once it has gone.</summary>
    public static Task TerminateAsync(int processId, Process? launched) => Task.Run(() =>
    {
        string? startKey = RuntimeFiles.StartKey(processId);
        if (Kill(processId, SigTerm) != 0) return;
        if (HasExited(processId, launched, Grace)) return;
        Kill(processId, SigKill);
        if (startKey is not null && HasExited(processId, launched, Grace)) RuntimeFiles.RemoveOf(processId, startKey);
    });

    /// <summary>There and not a zombie (an exited child its parent has not reaped yet).</summary>
    private static bool IsAlive(int processId)
    {
        try
        {
            string stat = File.ReadAllText($"/proc/{processId}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..].FirstOrDefault() != 'Z';
        }
        catch (IOException) { return false; }
    }

    private static bool HasExited(int processId, Process? launched, TimeSpan wait)
    {
        if (launched is not null) return launched.WaitForExit(wait);
        var deadline = DateTime.UtcNow + wait;
        while (DateTime.UtcNow < deadline)
        {
            if (!IsAlive(processId)) return true;
            Thread.Sleep(50);
        }
        return false;
    }
}
