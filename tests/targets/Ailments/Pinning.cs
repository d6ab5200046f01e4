using System.Runtime.InteropServices;

namespace Ailments;

/// <summary>Buffers pinned among garbage across several collections: every twentieth of many
/// small arrays is pinned, the rest dropped, collected; the pins keep the free space between them.</summary>
public static class Pinning
{
    public const int Buffers = 100_000, Every = 20, Size = 1024, Rounds = 3;
    private static readonly List<GCHandle> Pins = new();

    public static Truth Build()
    {
        for (int round = 0; round < Rounds; round++)
        {
            var batch = new byte[Buffers][];
            for (int i = 0; i < Buffers; i++)
            {
                batch[i] = new byte[Size];
                if (i % Every == 0)
                    Pins.Add(GCHandle.Alloc(batch[i], GCHandleType.Pinned));
            }
            batch = null;
            GC.Collect();
        }
        for (int i = 0; i < Pins.Count; i += 2)
            Pins[i].Free();  // released only partly
        GC.Collect();
        return new Truth("fragmentation", ["System.Byte[]"], [], Count: (Pins.Count + 1) / 2);
    }
}
