// Source breakpoints: requested by file and line, bound to IL offsets in every loaded
// module whose PDB has code there, pending until such a module loads. Touched by requests
// and by module-load callbacks, so every access is locked.
using System.Globalization;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Session;

public sealed record BreakpointRequest(int Line, string? Condition, string? HitCondition, string? LogMessage,
    string? FunctionName = null);

public sealed class SourceBreakpoint(int id, string sourcePath, BreakpointRequest request)
{
    public int Id { get; } = id;
    /// <summary>The file; for a function breakpoint, FunctionsKey until it binds.</summary>
    public string SourcePath { get; set; } = sourcePath;
    private BreakpointRequest _request = request;

    /// <summary>What the client asked last: a re-sent breakpoint keeps its id and hit count,
    /// its condition, hit condition and log message are taken from the new request (and
    /// parsed again, once, here).</summary>
    public BreakpointRequest Request
    {
        get => _request;
        set
        {
            _request = value;
            Code = BreakpointCode.Compile(value);
        }
    }

    /// <summary>The condition and log message, parsed when the breakpoint was set.</summary>
    public BreakpointCode Code { get; private set; } = BreakpointCode.Compile(request);
    public int Line { get; set; } = request.Line;
    public int? Column { get; set; }
    public bool Verified => Bindings.Count > 0 && Code.Error is null;
    /// <summary>Why it is not bound, when there is more to say than "pending" (an ambiguous path).</summary>
    public string? Message { get; set; }
    public int HitCount { get; set; }
    public List<(string ModulePath, int MethodToken, int IlOffset, ICorDebugFunctionBreakpoint Handle)> Bindings { get; } = [];

    /// <summary>Counts this hit and says whether the hit condition lets it stop.</summary>
    public bool CountHit()
    {
        HitCount++;
        return HitConditionMet(Request.HitCondition, HitCount);
    }

    /// <summary>"N" or "== N": the Nth hit; ">= N", "> N", "< N", "<= N"; "% N": every Nth.</summary>
    public static bool HitConditionMet(string? condition, int hits)
    {
        if (string.IsNullOrWhiteSpace(condition)) return true;
        string text = condition.Trim();
        string op = new([.. text.TakeWhile(c => "<>=%!".Contains(c))]);
        if (!int.TryParse(text[op.Length..].Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out int n))
            return true;
        return op switch
        {
            "" or "=" or "==" => hits == n,
            ">=" => hits >= n,
            ">" => hits > n,
            "<" => hits < n,
            "<=" => hits <= n,
            "%" => n > 0 && hits % n == 0,
            "!=" => hits != n,
            _ => true,
        };
    }

    public static bool IsValidHitCondition(string? condition)
    {
        if (string.IsNullOrWhiteSpace(condition)) return true;
        string text = condition.Trim();
        string op = new([.. text.TakeWhile(c => "<>=%!".Contains(c))]);
        return op is "" or "=" or "==" or ">=" or ">" or "<" or "<=" or "%" or "!="
            && int.TryParse(text[op.Length..].Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out _);
    }
}

public sealed class BreakpointTable
{
    /// <summary>Where function breakpoints are kept (setFunctionBreakpoints replaces them all).</summary>
    public const string FunctionsKey = "\0functions";
    private readonly object _gate = new();
    private readonly Dictionary<string, List<SourceBreakpoint>> _bySource = new(StringComparer.Ordinal);
    private int _nextId = 1;

    /// <summary>launch/attach `sourceFileMap`: requests name local paths, PDBs build paths.</summary>
    public SourceFileMap Map { get; set; } = SourceFileMap.Empty;

    /// <summary>launch/attach `justMyCode`: under it no breakpoint binds in code the user
    /// marked as not theirs ([DebuggerStepThrough], [DebuggerNonUserCode] on the method or
    /// its type), as Visual Studio's just my code does not stop there.</summary>
    public bool JustMyCode { get; set; } = true;

    /// <summary>Replace a file's breakpoints. One at a line asked for before (VS Code re-sends
    /// the whole file at every edit) is the same breakpoint: same id, hit count and bindings.
    /// The new ones are bound against modules already loaded; the dropped ones deactivated.</summary>
    public IReadOnlyList<SourceBreakpoint> Replace(string sourcePath, IReadOnlyList<BreakpointRequest> requests,
        IReadOnlyList<LoadedModule> modules)
    {
        lock (_gate)
        {
            var previous = _bySource.Remove(sourcePath, out var old) ? old : [];
            var kept = new List<SourceBreakpoint>();
            var result = requests.Select(request =>
            {
                var same = previous.FirstOrDefault(bp => !kept.Contains(bp) && SameKey(bp.Request, request));
                if (same is null) return new SourceBreakpoint(_nextId++, sourcePath, request);
                kept.Add(same);
                same.Request = request;
                return same;
            }).ToList();
            var unbound = new List<(string ModulePath, int MethodToken, int IlOffset, ICorDebugFunctionBreakpoint Handle)>();
            foreach (var dropped in previous.Except(kept).Concat(kept.Where(bp => bp.Code.Error is not null)))
            {
                unbound.AddRange(dropped.Bindings);
                dropped.Bindings.Clear();
            }
            _bySource[sourcePath] = result;
            foreach (var binding in unbound)
                if (SharedHandle(binding.ModulePath, binding.MethodToken, binding.IlOffset) is null) binding.Handle.Activate(0);
            foreach (var module in modules)
                foreach (var bp in result) Bind(bp, module);
            return result;
        }
    }

    /// <summary>A source breakpoint is its requested line; a function breakpoint its name.</summary>
    private static bool SameKey(BreakpointRequest a, BreakpointRequest b) =>
        a.Line == b.Line && string.Equals(a.FunctionName, b.FunctionName, StringComparison.Ordinal);

    /// <summary>Bind pending breakpoints in a newly loaded module; returns those it verified.</summary>
    public IReadOnlyList<SourceBreakpoint> BindModule(LoadedModule module)
    {
        if (module.Symbols is null) return [];
        var verified = new List<SourceBreakpoint>();
        lock (_gate)
        {
            foreach (var bp in _bySource.Values.SelectMany(list => list))
            {
                bool was = bp.Verified;
                Bind(bp, module);
                if (!was && bp.Verified) verified.Add(bp);
            }
        }
        return verified;
    }

    private void Bind(SourceBreakpoint bp, LoadedModule module)
    {
        if (module.Symbols is null || bp.Code.Error is not null || bp.Bindings.Any(b => b.ModulePath == module.Path)) return;
        if (bp.Request.FunctionName is { } functionName)
        {
            BindFunction(bp, functionName, module);
            return;
        }
        string buildPath = Map.ToBuild(bp.SourcePath);
        if (module.Symbols.AmbiguousDocuments(buildPath) is { Count: > 0 } candidates)
            bp.Message = $"ambiguous: '{bp.SourcePath}' could be any of {string.Join(", ", candidates)}; give more of its path";
        foreach (var location in module.Symbols.ResolveLine(buildPath, bp.Request.Line))
        {
            if (WhyNotStopping(module.Path, location.MethodToken) is { } why)
            {
                bp.Message = why;
                continue;
            }
            if (HandleAt(module, location.MethodToken, location.IlOffset) is not { } handle) continue;
            bp.Bindings.Add((module.Path, location.MethodToken, location.IlOffset, handle));
            bp.Line = location.Line;
            bp.Column = location.Column;
        }
    }

    /// <summary>Why a breakpoint is not set in the method: [DebuggerHidden] always; under just
    /// my code, [DebuggerStepThrough] and [DebuggerNonUserCode] (an async method's kickoff
    /// stub, marked step-through by the compiler, never holds a line). Null: it may stop there.</summary>
    private string? WhyNotStopping(string modulePath, int methodToken)
    {
        MethodTraits traits = MethodTraits.Open(modulePath);
        if (traits.IsHidden(methodToken)) return "not set: the line is in a [DebuggerHidden] method, where the debugger does not stop";
        if (!JustMyCode) return null;
        string? mark = traits.StepThrough.Contains(methodToken) ? "[DebuggerStepThrough]"
            : traits.NonUserCode.Contains(methodToken) ? "[DebuggerNonUserCode]" : null;
        return mark is null ? null
            : $"not set: the line is in {mark} code, where just my code does not stop (justMyCode: false stops there)";
    }

    /// <summary>Every method the name means (FunctionName: overloads, generics, nested
    /// types) on entry: IL offset 0, before the method's first statement; for an async or
    /// iterator method, the first line of its body in the state machine's MoveNext (its
    /// kickoff stub has no source).</summary>
    private void BindFunction(SourceBreakpoint bp, string function, LoadedModule module)
    {
        if (FunctionName.TryParse(function, out _) is not { } name || module.Metadata is not { } metadata) return;
        foreach (int method in name.Match(metadata).Where(t => !MethodTraits.Open(module.Path).IsHidden(t)))
        {
            (int token, int offset) = metadata.StateMachineMoveNext(method) is { } moveNext
                && module.Symbols?.FirstStatementOffset(moveNext) is { } first ? (moveNext, first) : (method, 0);
            if (WhyNotStopping(module.Path, token) is { } why)
            {
                bp.Message = why;
                continue;
            }
            if (HandleAt(module, token, offset) is not { } handle) continue;
            bp.Bindings.Add((module.Path, token, offset, handle));
            if (bp.Column is null && module.Symbols?.GetSourceSpan(token, offset) is { } span)
                (bp.SourcePath, bp.Line, bp.Column) = (Map.ToLocal(span.SourcePath), span.Line, span.Column);
        }
    }

    /// <summary>The one active ICorDebug breakpoint at a location, shared by every breakpoint
    /// bound there (lines of one multi-line statement, a function and a line breakpoint), so
    /// the program stops there once; made when the location has none yet.</summary>
    private ICorDebugFunctionBreakpoint? HandleAt(LoadedModule module, int methodToken, int ilOffset)
    {
        if (SharedHandle(module.Path, methodToken, ilOffset) is { } shared) return shared;
        if (module.Module.GetFunctionFromToken(methodToken, out var function) < 0) return null;
        if (function.GetILCode(out var code) < 0 || code.CreateBreakpoint((uint)ilOffset, out var handle) < 0) return null;
        handle.Activate(1);
        return handle;
    }

    private ICorDebugFunctionBreakpoint? SharedHandle(string modulePath, int methodToken, int ilOffset) =>
        _bySource.Values.SelectMany(list => list).SelectMany(bp => bp.Bindings)
            .Where(b => b.ModulePath == modulePath && b.MethodToken == methodToken && b.IlOffset == ilOffset)
            .Select(b => b.Handle).FirstOrDefault();

    /// <summary>Our breakpoints behind an ICorDebug breakpoint that fired (every one bound
    /// there, in the order they were asked for), and where they are bound; empty when none.</summary>
    public (IReadOnlyList<SourceBreakpoint> Breakpoints, BoundAt At) Find(ICorDebugFunctionBreakpoint hit)
    {
        if (hit.GetFunction(out var function) < 0 || hit.GetOffset(out uint offset) < 0) return ([], new BoundAt("", 0, 0));
        function.GetToken(out int token);
        function.GetModule(out var module);
        string path = DebuggerEngine.ModuleName(module);
        lock (_gate)
        {
            var here = _bySource.Values.SelectMany(list => list)
                .Where(bp => bp.Bindings.Any(b => b.ModulePath == path && b.MethodToken == token && b.IlOffset == (int)offset))
                .OrderBy(bp => bp.Id).ToList();
            return (here, new BoundAt(path, token, (int)offset));
        }
    }
}
