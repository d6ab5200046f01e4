using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace PyInspect.Heap;

/// <summary>
/// File and line of an IL offset from a module's portable PDB (beside the module, embedded,
/// or in the folder the user gives), and the await an async state machine's state stands
/// for (the PDB's async stepping information lists the awaits in state order). A module
/// without a PDB answers null; each PDB is opened once per target.
/// </summary>
public sealed class SourceLines : IDisposable
{
    private static readonly Guid AsyncSteppingKind = new("54FD2AC5-E925-401A-9C2A-F94F171072F8");
    private readonly string? _symbolFolder;
    private readonly Dictionary<string, Pdb?> _pdbs = new(StringComparer.Ordinal);

    public SourceLines(string? symbolFolder) => _symbolFolder = string.IsNullOrEmpty(symbolFolder) ? null : symbolFolder;

    private sealed record Pdb(PEReader Pe, MetadataReaderProvider Provider, MetadataReader Reader);

    /// <summary>The source line of the nearest visible sequence point at or before ilOffset.</summary>
    public (string File, int Line)? Locate(string? modulePath, int methodToken, int ilOffset)
    {
        if (ilOffset < 0 || Open(modulePath) is not { } pdb) return null;
        var handle = MetadataTokens.MethodDefinitionHandle(methodToken & 0xFFFFFF);
        (string, int)? best = null;
        try
        {
            var info = pdb.Reader.GetMethodDebugInformation(handle);
            foreach (var point in info.GetSequencePoints())
            {
                if (point.Offset > ilOffset) break;
                if (!point.IsHidden && !point.Document.IsNil)
                    best = (pdb.Reader.GetString(pdb.Reader.GetDocument(point.Document).Name), point.StartLine);
            }
        }
        catch (Exception exc) when (exc is BadImageFormatException or ArgumentException)
        {
            return null;
        }
        return best;
    }

    /// <summary>The source line of the await a MoveNext method is suspended at in the given state.</summary>
    public (string File, int Line)? AwaitLine(string? modulePath, int moveNextToken, int state)
    {
        if (state < 0 || Open(modulePath) is not { } pdb) return null;
        foreach (var infoHandle in pdb.Reader.GetCustomDebugInformation(MetadataTokens.EntityHandle(moveNextToken)))
        {
            var info = pdb.Reader.GetCustomDebugInformation(infoHandle);
            if (pdb.Reader.GetGuid(info.Kind) != AsyncSteppingKind) continue;
            var blob = pdb.Reader.GetBlobReader(info.Value);
            if (blob.RemainingBytes < 4) return null;
            blob.ReadUInt32();  // catch handler offset
            for (int index = 0; blob.RemainingBytes > 0; index++)
            {
                int yieldOffset = blob.ReadInt32();
                blob.ReadInt32();
                blob.ReadCompressedInteger();
                if (index == state) return Locate(modulePath, moveNextToken, yieldOffset);
            }
        }
        return null;
    }

    private Pdb? Open(string? modulePath)
    {
        if (string.IsNullOrEmpty(modulePath)) return null;
        if (_pdbs.TryGetValue(modulePath, out var known)) return known;
        Pdb? pdb = null;
        try
        {
            if (File.Exists(modulePath))
            {
                var pe = new PEReader(File.OpenRead(modulePath));
                if (pe.TryOpenAssociatedPortablePdb(modulePath, OpenPdb, out var provider, out _) && provider != null)
                    pdb = new Pdb(pe, provider, provider.GetMetadataReader());
                else
                    pe.Dispose();
            }
        }
        catch (Exception exc) when (exc is IOException or BadImageFormatException or InvalidOperationException or UnauthorizedAccessException)
        {
        }
        _pdbs[modulePath] = pdb;
        return pdb;
    }

    /// <summary>The PDB the module names, else one of the same file name in the symbol folder.</summary>
    private Stream? OpenPdb(string path)
    {
        if (File.Exists(path)) return File.OpenRead(path);
        if (_symbolFolder != null && Path.Combine(_symbolFolder, Path.GetFileName(path)) is var other && File.Exists(other))
            return File.OpenRead(other);
        return null;
    }

    public void Dispose()
    {
        foreach (var pdb in _pdbs.Values)
        {
            pdb?.Provider.Dispose();
            pdb?.Pe.Dispose();
        }
        _pdbs.Clear();
    }
}
