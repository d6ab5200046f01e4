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
    /// Where a breakpoint on `line` binds: every method with code starting on that line;
    /// else, on a continuation line of a multi-line statement (a fluent chain, an argument
    /// list, an initializer), that statement, the innermost one when statements nest, in the
    /// innermost method whose lines hold the line (a line inside a lambda's body is the
    /// lambda's, not the statement's around it); else every method with code on the nearest
    /// line after it (a line between statements binds to the next one). Each binding is the
    /// lowest IL offset of its method there.
    /// </summary>
    public IReadOnlyList<ResolvedLine> ResolveLine(string sourcePath, int line)
    {
        string? document = FindDocument(sourcePath);
        if (document == null)
            return Array.Empty<ResolvedLine>();
        List<MethodPoint> points = _pointsByDocument[document];
        if (!points.Any(p => p.Line == line) && EnclosingStatement(points, line) is { } statement)
            return [.. Resolved(points.Where(p => p.MethodToken == statement.MethodToken && p.Line == statement.Line
                && p.Column == statement.Column))];
        var candidates = points.Where(p => p.Line >= line).ToList();
        if (candidates.Count == 0)
            return Array.Empty<ResolvedLine>();
        int nearest = candidates.Min(p => p.Line);
        return Resolved(candidates.Where(p => p.Line == nearest));
    }

    private static ResolvedLine[] Resolved(IEnumerable<MethodPoint> points) => points
        .GroupBy(p => p.MethodToken)
        .Select(g => g.OrderBy(p => p.IlOffset).First())
        .OrderBy(p => p.MethodToken)
        .Select(p => new ResolvedLine(p.MethodToken, p.IlOffset, p.Line, p.Column, p.EndLine, p.EndColumn, p.Document))
        .ToArray();

    /// <summary>The statement a line continues: in the innermost method whose source spans
    /// the line, the innermost of its sequence points that starts above the line and ends on
    /// or below it; null when none does.</summary>
    private static MethodPoint? EnclosingStatement(List<MethodPoint> points, int line)
    {
        int? method = points.GroupBy(p => p.MethodToken)
            .Select(g => (Token: g.Key, Start: g.Min(p => (p.Line, p.Column)), End: g.Max(p => p.EndLine)))
            .Where(m => m.Start.Line <= line && line <= m.End)
            .OrderByDescending(m => m.Start).Select(m => (int?)m.Token).FirstOrDefault();
        if (method is null) return null;
        return points.Where(p => p.MethodToken == method && p.Line < line && line <= p.EndLine)
            .OrderByDescending(p => (p.Line, p.Column)).Cast<MethodPoint?>().FirstOrDefault();
    }

    /// <summary>The PDB document a breakpoint's path means (DocumentMatch), or null.</summary>
    private string? FindDocument(string sourcePath) => DocumentMatch.Find(sourcePath, _pointsByDocument.Keys).Document;

    /// <summary>The documents a path could mean when it is ambiguous; empty when it is not.</summary>
    public IReadOnlyList<string> AmbiguousDocuments(string sourcePath) =>
        DocumentMatch.Find(sourcePath, _pointsByDocument.Keys).Ambiguous;

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

    public void Dispose()
    {
        _pdbProvider.Dispose();  // the PE reader belongs to the module's ModuleMetadata
    }
}
