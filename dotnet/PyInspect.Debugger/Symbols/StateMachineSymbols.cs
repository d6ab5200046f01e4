// What the PDB says about async and iterator state machines (MoveNext methods): where each
// hoisted local is in scope, and where an async method yields at an await and resumes.
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;

namespace PyInspect.Debugger.Symbols;

/// <summary>One await of an async method: the IL offset where MoveNext returns to wait, and
/// where it continues when the awaited task completes (in the MoveNext method given).</summary>
public sealed record AwaitPoint(int YieldOffset, int ResumeOffset, int ResumeMethodToken);

public sealed partial class ModuleSymbols
{
    private static readonly Guid HoistedLocalScopesKind = new("6DA9A61E-F8C7-4874-BE62-68BC5630DF71");
    private static readonly Guid AsyncSteppingKind = new("54FD2AC5-E925-401A-9C2A-F94F171072F8");

    /// <summary>IL ranges [start, end) in which hoisted local slot i is in scope; null when the PDB has none.</summary>
    public IReadOnlyList<(int Start, int End)>? HoistedLocalScopes(int moveNextToken)
    {
        if (CustomInformation(moveNextToken, HoistedLocalScopesKind) is not { } blob) return null;
        var scopes = new List<(int, int)>();
        while (blob.RemainingBytes >= 8)
        {
            int start = blob.ReadInt32(), length = blob.ReadInt32();
            scopes.Add((start, start + length));
        }
        return scopes;
    }

    /// <summary>The IL offset of the catch-all an async method's MoveNext puts around its body
    /// (it hands the exception to the method's task); null for other methods.</summary>
    public int? AsyncCatchHandlerOffset(int moveNextToken)
    {
        if (CustomInformation(moveNextToken, AsyncSteppingKind) is not { } blob || blob.RemainingBytes < 4) return null;
        uint stored = blob.ReadUInt32();  // offset + 1; 0 when not recorded (async Task methods)
        if (stored != 0) return (int)(stored - 1);
        // Not recorded: the catch-all wraps the whole body, so it is the widest catch region.
        var definition = _pe.GetMetadataReader().GetMethodDefinition(MetadataTokens.MethodDefinitionHandle(moveNextToken & 0xFFFFFF));
        if (definition.RelativeVirtualAddress == 0) return null;
        var widest = _pe.GetMethodBody(definition.RelativeVirtualAddress).ExceptionRegions
            .Where(r => r.Kind == ExceptionRegionKind.Catch).MaxBy(r => r.TryLength);
        return widest.TryLength > 0 ? widest.HandlerOffset : null;
    }

    /// <summary>The awaits of an async method's MoveNext; empty for other methods.</summary>
    public IReadOnlyList<AwaitPoint> AwaitPoints(int moveNextToken)
    {
        if (CustomInformation(moveNextToken, AsyncSteppingKind) is not { } blob || blob.RemainingBytes < 4) return [];
        blob.ReadUInt32(); // catch handler offset (+1), not needed for stepping
        var points = new List<AwaitPoint>();
        while (blob.RemainingBytes > 0)
        {
            int yieldOffset = blob.ReadInt32(), resumeOffset = blob.ReadInt32();
            int methodRow = blob.ReadCompressedInteger();
            points.Add(new AwaitPoint(yieldOffset, resumeOffset, MetadataTokens.GetToken(MetadataTokens.MethodDefinitionHandle(methodRow))));
        }
        return points;
    }

    private BlobReader? CustomInformation(int methodToken, Guid kind)
    {
        var handle = MetadataTokens.EntityHandle(methodToken);
        foreach (var infoHandle in _pdb.GetCustomDebugInformation(handle))
        {
            var info = _pdb.GetCustomDebugInformation(infoHandle);
            if (_pdb.GetGuid(info.Kind) == kind) return _pdb.GetBlobReader(info.Value);
        }
        return null;
    }
}
