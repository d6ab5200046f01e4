namespace Ailments;

public sealed class LockA { }
public sealed class LockB { }
public sealed class Gate { }

/// <summary>Deadlocks and a convoy: threads that wait on locks other threads hold forever.</summary>
public static class Hangs
{
    private static readonly LockA A = new();
    private static readonly LockB B = new();
    private static readonly Gate Door = new();
    private static readonly SemaphoreSlim Slot = new(1, 1);
#if NET9_0_OR_GREATER
    private static readonly Lock NewLock = new();
#endif
    private static readonly ManualResetEventSlim HasA = new(), HasB = new(), Owned = new();
    public const int ConvoyWaiters = 5;

    public static Truth MonitorDeadlock()
    {
        Program.Start("deadlock-a", () => { lock (A) { HasA.Set(); HasB.Wait(); TakeB(); } });
        Program.Start("deadlock-b", () => { lock (B) { HasB.Set(); HasA.Wait(); TakeA(); } });
        Program.WaitUntilBlocked();
        return new Truth("deadlock", ["Ailments.LockA", "Ailments.LockB"], ["Ailments.Hangs.TakeA", "Ailments.Hangs.TakeB"]);
    }

    private static void TakeB()
    {
        lock (B)  // @bp take-b
            Console.WriteLine("never");
    }

    private static void TakeA()
    {
        lock (A)  // @bp take-a
            Console.WriteLine("never");
    }

#if NET9_0_OR_GREATER
    /// <summary>A monitor and a System.Threading.Lock, taken in opposite orders.</summary>
    public static Truth MixedDeadlock()
    {
        Program.Start("deadlock-a", () => { lock (A) { HasA.Set(); HasB.Wait(); TakeNewLock(); } });
        Program.Start("deadlock-b", () => { lock (NewLock) { HasB.Set(); HasA.Wait(); TakeA(); } });
        Program.WaitUntilBlocked();
        return new Truth("deadlock", ["Ailments.LockA", "System.Threading.Lock"], ["Ailments.Hangs.TakeNewLock", "Ailments.Hangs.TakeA"]);
    }

    private static void TakeNewLock()
    {
        using (NewLock.EnterScope())  // @bp take-new-lock
            Console.WriteLine("never");
    }
#endif

    /// <summary>A monitor and a SemaphoreSlim of one slot: deadlock-b takes the slot and waits for
    /// LockA; deadlock-a holds LockA and waits for the slot (count 0, and a semaphore has no owner).</summary>
    public static Truth SemaphoreDeadlock()
    {
        Program.Start("deadlock-a", () => { lock (A) { HasA.Set(); HasB.Wait(); TakeSlot(); } });
        Program.Start("deadlock-b", () => { Slot.Wait(); HasB.Set(); HasA.Wait(); TakeA(); Slot.Release(); });
        Program.WaitUntilBlocked(() => Slot.CurrentCount == 0);
        return new Truth("deadlock", ["Ailments.LockA", "System.Threading.SemaphoreSlim"], ["Ailments.Hangs.TakeSlot", "Ailments.Hangs.TakeA"]);
    }

    private static void TakeSlot()
    {
        Slot.Wait();  // @bp take-slot
        Console.WriteLine("never");
    }

    /// <summary>One owner holds a monitor and sleeps in it; five threads queue behind it.</summary>
    public static Truth Convoy()
    {
        Program.Start("convoy-owner", () => { lock (Door) { Owned.Set(); Hold(); } });
        Owned.Wait();
        for (int i = 0; i < ConvoyWaiters; i++)
            Program.Start($"convoy-waiter-{i}", Enter);
        Program.WaitUntilBlocked();
        return new Truth("lock-convoy", ["Ailments.Gate"], ["Ailments.Hangs.Hold", "Ailments.Hangs.Enter"], Count: ConvoyWaiters);
    }

    private static void Hold() => Thread.Sleep(Timeout.Infinite);  // @bp convoy-holds

    private static void Enter()
    {
        lock (Door)  // @bp convoy-enters
            Console.WriteLine("never");
    }
}
