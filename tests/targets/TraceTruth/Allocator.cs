namespace TraceTruth;

/// <summary>One phase of known allocations and its truth: each method allocates one type
/// only, and the bytes it allocated are measured around it on this thread.</summary>
public sealed class Allocator
{
    public const int SmallArrays = 2_000;      // int[100]: 424 bytes each
    public const int Particles = 16_000;       // Particle: 56 bytes each
    public const int LargeArrays = 4;          // byte[200_000]: in the LOH
    public static volatile object Sink;

    public readonly Dictionary<string, long> Bytes = new()
    {
        ["System.Int32[]"] = 0, ["TraceTruth.Particle"] = 0, ["System.Byte[]"] = 0,
    };

    public static Dictionary<string, object> Phase(int rounds)
    {
        var allocator = new Allocator();
        int[] before = [GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2)];
        for (int round = 0; round < rounds; round++)
        {
            allocator.Round(round);
        }
        int[] after = [GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2)];
        int gen2 = after[2] - before[2], gen1 = after[1] - before[1] - gen2, gen0 = after[0] - before[0] - gen1 - gen2;
        return new Dictionary<string, object>
        {
            ["bytesByType"] = allocator.Bytes,
            ["methodByType"] = new Dictionary<string, string>
            {
                ["System.Int32[]"] = "MakeSmallArrays", ["TraceTruth.Particle"] = "MakeParticles",
                ["System.Byte[]"] = "MakeLargeArrays",
            },
            ["gcsByGeneration"] = new[] { gen0, gen1, gen2 },
            ["rounds"] = rounds,
        };
    }

    public void Round(int round)
    {
        Allocate();
        if (round % 10 == 9) GC.Collect(2, GCCollectionMode.Forced, blocking: true);
        else if (round % 5 == 4) GC.Collect(0, GCCollectionMode.Forced, blocking: true);
    }

    /// <summary>One round's allocations (about 2.6 MB), no GC induced.</summary>
    public void Allocate()
    {
        Measure("System.Int32[]", MakeSmallArrays);
        Measure("TraceTruth.Particle", MakeParticles);
        Measure("System.Byte[]", MakeLargeArrays);
    }

    private void Measure(string type, Action allocate)
    {
        long start = GC.GetAllocatedBytesForCurrentThread();
        allocate();
        Bytes[type] += GC.GetAllocatedBytesForCurrentThread() - start;
    }

    private static void MakeSmallArrays()
    {
        for (int i = 0; i < SmallArrays; i++) Sink = new int[100];
    }

    private static void MakeParticles()
    {
        for (int i = 0; i < Particles; i++) Sink = new Particle { X = i };
    }

    private static void MakeLargeArrays()
    {
        for (int i = 0; i < LargeArrays; i++) Sink = new byte[200_000];
    }
}
