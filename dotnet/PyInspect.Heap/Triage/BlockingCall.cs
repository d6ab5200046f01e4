namespace PyInspect.Heap;

/// <summary>
/// What a thread is blocked in, read off its top managed frames: the method of the first
/// frame that is a known wait. Kinds: "monitor" (Monitor.Enter/lock), "lock"
/// (System.Threading.Lock), "semaphore" (SemaphoreSlim.Wait), "monitor-wait"
/// (Monitor.Wait), "sleep", "join", "wait" (events, tasks).
/// </summary>
public static class BlockingCall
{
    private static readonly (string Prefix, string Kind)[] Waits =
    [
        ("System.Threading.Monitor.Wait", "monitor-wait"),
        ("System.Threading.Monitor.ObjWait", "monitor-wait"),
        ("System.Threading.Monitor.", "monitor"),
        ("System.Threading.ObjectHeader.", "monitor"),
        ("System.Threading.Lock.", "lock"),
        ("System.Threading.SemaphoreSlim.", "semaphore"),
        ("System.Threading.Thread.Sleep", "sleep"),
        ("System.Threading.Thread.Join", "join"),
        ("System.Threading.ManualResetEventSlim.", "wait"),
        ("System.Threading.WaitHandle.", "wait"),
        ("System.Threading.LowLevelLifoSemaphore.", "wait"),
        ("System.Threading.Tasks.Task.Wait", "wait"),
        ("System.Threading.Tasks.Task.InternalWait", "wait"),
        ("System.Threading.Tasks.Task`1.GetResultCore", "wait"),
    ];

    /// <summary>The kind of wait and the index of the outermost frame of it (the frame user
    /// code called: SemaphoreSlim.Wait waits in Monitor.Wait, Lock.Enter in a WaitHandle, and
    /// the outer one says what the thread waits for), or null when no top frame is a known wait.</summary>
    public static (string Kind, int Frame)? Of(IReadOnlyList<FrameRecord> frames)
    {
        for (int i = 0; i < frames.Count && i < 16; i++)
        {
            if (frames[i].Kind != "managed") continue;
            string? kind = KindOf(frames[i].Method);
            if (kind is null) continue;
            int outer = i;
            while (outer + 1 < frames.Count && (frames[outer + 1].Kind != "managed" || KindOf(frames[outer + 1].Method) is not null))
                outer++;
            while (outer > i && frames[outer].Kind != "managed")
                outer--;
            return (KindOf(frames[outer].Method)!, outer);
        }
        return null;
    }

    private static string? KindOf(string method)
    {
        foreach (var (prefix, kind) in Waits)
            if (method.StartsWith(prefix, StringComparison.Ordinal))
                return kind;
        return null;
    }
}
