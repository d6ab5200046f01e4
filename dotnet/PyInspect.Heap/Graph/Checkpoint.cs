using System.Runtime.CompilerServices;

namespace PyInspect.Heap;

/// <summary>
/// Where the long loops of a graph's build (reference resolution, the dominator pass,
/// retained sizes) may stop when the build is cancelled (<see cref="HeapGraphBuilder.Cancel"/>):
/// every 2^20 steps a loop reads its token (one volatile read), so a cancel lands within
/// milliseconds at 100M objects, and the loops pay a masked compare per step.
/// </summary>
internal static class Checkpoint
{
    /// <summary>Steps between two looks at the token (a loop over blocks of this many looks once a block).</summary>
    public const int Block = 1 << 20;

    private const long Every = Block - 1;

    /// <summary>At every 2^20th step, throw OperationCanceledException once a cancel was asked.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void At(long step, CancellationToken cancel)
    {
        if ((step & Every) == 0)
            Look(cancel);
    }

    /// <summary>The look itself, never inlined: a hot loop keeps only the masked compare.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Look(CancellationToken cancel) => cancel.ThrowIfCancellationRequested();

    /// <summary>At every 2^20th step, whether a part of a parallel loop should return early (its
    /// caller throws after the loop: an exception inside one would come wrapped).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool Stopped(long step, CancellationToken cancel) => (step & Every) == 0 && cancel.IsCancellationRequested;
}
