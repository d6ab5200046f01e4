namespace PyInspect.Debugger.Symbols;

/// <summary>Where an offset sits among a method's sequence points: what a step that just
/// arrived somewhere needs to decide whether it has reached a line of source.</summary>
public sealed partial class ModuleSymbols
{
    /// <summary>In compiler-made code: at a hidden sequence point, or before the first one
    /// (an async method's MoveNext starts so, dispatching on its state).</summary>
    public bool IsHiddenAt(int methodToken, int ilOffset)
    {
        if (!_pointsByMethod.TryGetValue(methodToken, out var points) || points.Length == 0) return false;
        MethodPoint? at = null;
        foreach (var p in points)
        {
            if (p.IlOffset > ilOffset) break;
            at = p;
        }
        return at is not { Hidden: false };
    }

    /// <summary>Exactly at the start of a statement (a visible sequence point).</summary>
    public bool IsStatementStart(int methodToken, int ilOffset) =>
        _pointsByMethod.TryGetValue(methodToken, out var points) && points.Any(p => !p.Hidden && p.IlOffset == ilOffset);

    /// <summary>The IL offset of a method's first line of source; null when it has none.</summary>
    public int? FirstStatementOffset(int methodToken) =>
        _pointsByMethod.TryGetValue(methodToken, out var points) && points.Any(p => !p.Hidden)
            ? points.First(p => !p.Hidden).IlOffset : null;
}
