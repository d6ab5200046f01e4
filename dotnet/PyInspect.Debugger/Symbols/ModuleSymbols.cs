using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace PyInspect.Debugger.Symbols;

/// <summary>
/// A module's portable PDB (adjacent or embedded), read through System.Reflection.Metadata:
/// lines to IL offsets for breakpoints, IL offsets to source for frames and stepping, and
/// the locals in scope. No ICorDebug here. The module file itself is read through its one
/// ModuleMetadata (the same PE reader and cache every layer uses).
/// </summary>
public sealed partial class ModuleSymbols : IDisposable
{
    private readonly PEReader _pe;
    private readonly MetadataReaderProvider _pdbProvider;
    private readonly MetadataReader _pdb;
    private readonly Dictionary<int, MethodPoint[]> _pointsByMethod = new();
    private readonly Dictionary<string, List<MethodPoint>> _pointsByDocument = new(StringComparer.Ordinal);

    /// <summary>One sequence point of one method; Hidden points carry no source.</summary>
    private readonly record struct MethodPoint(int MethodToken, int IlOffset, bool Hidden, string Document,
        int Line, int Column, int EndLine, int EndColumn);

    private ModuleSymbols(string modulePath, PEReader pe, MetadataReaderProvider provider)
    {
        ModulePath = modulePath;
        _pe = pe;
        _pdbProvider = provider;
        _pdb = provider.GetMetadataReader();
        IndexSequencePoints();
        SourceFiles = _pointsByDocument.Keys.OrderBy(k => k, StringComparer.Ordinal).ToArray();
    }

    public string ModulePath { get; }
    public IReadOnlyList<string> SourceFiles { get; }

    /// <summary>Opens the module's PDB; null when the module has none (or is not a managed PE).</summary>
    public static ModuleSymbols? TryLoad(string modulePath)
    {
        if (ModuleMetadata.TryOpen(modulePath) is not { } metadata) return null;
        try
        {
            if (metadata.PE.TryOpenAssociatedPortablePdb(modulePath, OpenIfExists, out var provider, out _) && provider != null)
                return new ModuleSymbols(modulePath, metadata.PE, provider);
        }
        catch (Exception e) when (e is IOException or BadImageFormatException or InvalidOperationException or UnauthorizedAccessException)
        {
        }
        return null;
    }

    private static Stream? OpenIfExists(string path) => File.Exists(path) ? File.OpenRead(path) : null;

    private void IndexSequencePoints()
    {
        foreach (var handle in _pdb.MethodDebugInformation)
        {
            int token = MetadataTokens.GetToken(handle.ToDefinitionHandle());
            var points = new List<MethodPoint>();
            foreach (var sp in _pdb.GetMethodDebugInformation(handle).GetSequencePoints())
            {
                string doc = sp.Document.IsNil ? "" : _pdb.GetString(_pdb.GetDocument(sp.Document).Name);
                var point = new MethodPoint(token, sp.Offset, sp.IsHidden, doc, sp.StartLine, sp.StartColumn, sp.EndLine, sp.EndColumn);
                points.Add(point);
                if (!sp.IsHidden)
                {
                    if (!_pointsByDocument.TryGetValue(doc, out var list))
                        _pointsByDocument[doc] = list = new List<MethodPoint>();
                    list.Add(point);
                }
            }
            if (points.Count > 0)
                _pointsByMethod[token] = points.OrderBy(p => p.IlOffset).ToArray();
        }
    }

    /// <summary>
    /// Every method with code on the nearest line at or after `line` in the file: the
    /// lowest IL offset of each such method on that line.
    /// </summary>
    public IReadOnlyList<ResolvedLine> ResolveLine(string sourcePath, int line)
    {
        string? document = FindDocument(sourcePath);
        if (document == null)
            return Array.Empty<ResolvedLine>();
        var candidates = _pointsByDocument[document].Where(p => p.Line >= line).ToList();
        if (candidates.Count == 0)
            return Array.Empty<ResolvedLine>();
        int nearest = candidates.Min(p => p.Line);
        return candidates.Where(p => p.Line == nearest)
            .GroupBy(p => p.MethodToken)
            .Select(g => g.OrderBy(p => p.IlOffset).First())
            .OrderBy(p => p.MethodToken)
            .Select(p => new ResolvedLine(p.MethodToken, p.IlOffset, p.Line, p.Column, p.EndLine, p.EndColumn, p.Document))
            .ToArray();
    }

    /// <summary>
    /// The PDB document for a path: the same path once both are normalised (slashes, `..`),
    /// else once both have their symbolic links resolved (a project folder opened by a link).
    /// Only where a path cannot be compared whole does the file name decide, and then only a
    /// unique one: a relative request path, or a deterministic build's `/_/...` document.
    /// An absolute path elsewhere (`/elsewhere/Program.cs`) is another file.
    /// </summary>
    private string? FindDocument(string sourcePath)
    {
        string wanted = SourceFileMap.Normalize(sourcePath);
        foreach (var document in _pointsByDocument.Keys)
            if (SourceFileMap.Normalize(document) == wanted) return document;
        if (wanted.StartsWith('/'))
        {
            string real = SourceFileMap.Real(wanted);  // links resolved on both sides
            foreach (var document in _pointsByDocument.Keys)
                if (SourceFileMap.Real(document) == real) return document;
        }
        bool relative = !wanted.StartsWith('/') && !(wanted.Length > 2 && wanted[1] == ':');
        string name = Path.GetFileName(wanted);
        var matches = _pointsByDocument.Keys
            .Where(d => relative || d.Replace('\\', '/').StartsWith("/_/", StringComparison.Ordinal))
            .Where(d => Path.GetFileName(d.Replace('\\', '/')) == name).ToList();
        return matches.Count == 1 ? matches[0] : null;
    }

    /// <summary>The nearest non-hidden sequence point at or before the offset.</summary>
    public SourceSpan? GetSourceSpan(int methodToken, int ilOffset)
    {
        if (!_pointsByMethod.TryGetValue(methodToken, out var points))
            return null;
        MethodPoint? found = null;
        foreach (var p in points)
        {
            if (p.IlOffset > ilOffset)
                break;
            if (!p.Hidden)
                found = p;
        }
        return found is { } f ? new SourceSpan(f.Document, f.Line, f.Column, f.EndLine, f.EndColumn) : null;
    }

    /// <summary>
    /// IL range of the statement holding the offset: from its sequence point to the next
    /// non-hidden one (hidden points between are folded in), or to the method's end.
    /// </summary>
    public IReadOnlyList<IlRange> GetStepRanges(int methodToken, int ilOffset)
    {
        if (!_pointsByMethod.TryGetValue(methodToken, out var points))
            return Array.Empty<IlRange>();
        int start = -1, end = GetIlSize(methodToken);
        for (int i = 0; i < points.Length; i++)
        {
            var p = points[i];
            if (p.IlOffset <= ilOffset)
            {
                if (!p.Hidden || start < 0)
                    start = p.IlOffset;
                continue;
            }
            if (!p.Hidden && p.IlOffset > start)
            {
                end = p.IlOffset;
                break;
            }
        }
        if (start < 0)
            start = 0;
        return end > start ? new[] { new IlRange(start, end) } : Array.Empty<IlRange>();
    }

    private int GetIlSize(int methodToken)
    {
        var metadata = _pe.GetMetadataReader();
        var method = metadata.GetMethodDefinition((MethodDefinitionHandle)MetadataTokens.EntityHandle(methodToken));
        if (method.RelativeVirtualAddress == 0)
            return 0;
        return _pe.GetMethodBody(method.RelativeVirtualAddress).Size;
    }

    /// <summary>Locals whose scope holds the offset, compiler-hidden ones left out, by slot.</summary>
    public IReadOnlyList<LocalInfo> GetLocals(int methodToken, int ilOffset)
    {
        var handle = (MethodDefinitionHandle)MetadataTokens.EntityHandle(methodToken);
        var locals = new Dictionary<int, LocalInfo>();
        foreach (var scopeHandle in _pdb.GetLocalScopes(handle))
        {
            var scope = _pdb.GetLocalScope(scopeHandle);
            if (ilOffset < scope.StartOffset || ilOffset >= scope.EndOffset)
                continue;
            foreach (var localHandle in scope.GetLocalVariables())
            {
                var local = _pdb.GetLocalVariable(localHandle);
                if ((local.Attributes & LocalVariableAttributes.DebuggerHidden) != 0)
                    continue;
                locals[local.Index] = new LocalInfo(_pdb.GetString(local.Name), local.Index);
            }
        }
        return locals.Values.OrderBy(l => l.SlotIndex).ToArray();
    }

    public bool HasSource(int methodToken) =>
        _pointsByMethod.TryGetValue(methodToken, out var points) && points.Any(p => !p.Hidden);

    /// <summary>Method tokens for a function breakpoint: type by full name ("A.B.Outer.Inner" or "+"), method by name.</summary>
    public IReadOnlyList<int> FindMethods(string typeFullName, string methodName) =>
        ModuleMetadata.Open(ModulePath).FindMethods(typeFullName, methodName);

    public void Dispose()
    {
        _pdbProvider.Dispose();  // the PE reader belongs to the module's ModuleMetadata
    }
}
