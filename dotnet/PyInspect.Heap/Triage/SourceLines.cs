using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace PyInspect.Heap;

/// <summary>
/// File and line of an IL offset from a module's portable PDB (beside the module, embedded,
/// or in the folder the user gives; for a module whose file is not here, wherever the
/// target's PDB lookup finds it), and the await an async state machine's state stands
/// for (the PDB's async stepping information lists the awaits in state order). A module
/// without a PDB answers null, and why once per answer (<see cref="SayMissing"/>); each PDB
/// is opened once per target.
/// </summary>
public sealed class SourceLines : IDisposable
{
    private static readonly Guid AsyncSteppingKind = new("54FD2AC5-E925-401A-9C2A-F94F171072F8");
    private readonly string? _symbolFolder;
    private readonly Dictionary<string, Pdb?> _pdbs = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string> _missing = new(StringComparer.Ordinal);
    private readonly HashSet<string> _said = new(StringComparer.Ordinal);
    private readonly Func<string, (MetadataReaderProvider? Pdb, string Why)>? _findPdb;

    /// <summary>findPdb finds the PDB of a module whose file or PDB is not here (by the
    /// module's path as the runtime names it), or says why not.</summary>
    public SourceLines(string? symbolFolder, Func<string, (MetadataReaderProvider? Pdb, string Why)>? findPdb = null)
    {
        _symbolFolder = string.IsNullOrEmpty(symbolFolder) ? null : symbolFolder;
        _findPdb = findPdb;
    }

    private sealed record Pdb(PEReader? Pe, MetadataReaderProvider Provider, MetadataReader Reader);

    /// <summary>A new answer starts: each module without a PDB is said once more.</summary>
    public void BeginAnswer() => _said.Clear();

    /// <summary>Why the module has no PDB, the first time it is asked in an answer; else null.</summary>
    public string? SayMissing(string? modulePath)
    {
        if (modulePath is null || Open(modulePath) is not null || !_said.Add(modulePath)) return null;
        return _missing.GetValueOrDefault(modulePath, "no PDB found");
    }

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
        pdb ??= Found(modulePath);
        _pdbs[modulePath] = pdb;
        return pdb;
    }

    /// <summary>The PDB of a module not found beside its file: by the module's recorded PDB id.</summary>
    private Pdb? Found(string modulePath)
    {
        if (_findPdb is null)
        {
            _missing[modulePath] = File.Exists(modulePath) ? "no PDB beside the module or in the symbols folder"
                : "the module's file is not here and no PDB was looked for";
            return null;
        }
        var (provider, why) = _findPdb(modulePath);
        if (provider is null)
        {
            _missing[modulePath] = why;
            return null;
        }
        return new Pdb(null, provider, provider.GetMetadataReader());
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
            pdb?.Pe?.Dispose();
        }
        _pdbs.Clear();
    }
}
