using System.Collections.Immutable;
using System.Runtime.InteropServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>A file locator that finds nothing: a dump is read from its own memory, and
/// ClrMD's default locator would ask Microsoft's symbol server, unbounded, behind an
/// offline switch's back. The DAC lookup asks servers itself (<see cref="SymbolFetch"/>).</summary>
internal sealed class NoFiles : IFileLocator
{
    public static readonly NoFiles Instance = new();

    public string? FindPEImage(string fileName, int buildTimeStamp, int imageSize, bool checkProperties) => null;

    public string? FindPEImage(string fileName, SymbolProperties archivedUnder, ImmutableArray<byte> buildIdOrUUID,
        OSPlatform originalPlatform, bool checkProperties) => null;
}
