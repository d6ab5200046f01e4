// A breakpoint's condition and log message as parsed when it is set (by the same Roslyn
// parser the evaluator uses), so a hit never parses, and a condition that is not C# is
// answered at setBreakpoints (verified: false, "condition '...' is not a C# expression: ...")
// instead of at every hit.
using PyInspect.Debugger.Evaluation;
using PyInspect.Debugger.Evaluation.Conditions;
using PyInspect.Debugger.Evaluation.Core;

namespace PyInspect.Debugger.Session;

/// <summary>Where a breakpoint fired: the binding's module, method and IL offset.</summary>
public sealed record BoundAt(string ModulePath, int MethodToken, int IlOffset);

public sealed class BreakpointCode
{
    public HitExpression? Condition { get; private init; }
    public LogMessage? Log { get; private init; }

    /// <summary>Why the condition cannot be used (the breakpoint is then not armed), or null.</summary>
    public string? Error { get; private init; }

    public static BreakpointCode Compile(BreakpointRequest request)
    {
        LogMessage? log = request.LogMessage is { } message ? new LogMessage(message) : null;
        if (request.Condition is not { } condition || string.IsNullOrWhiteSpace(condition)) return new BreakpointCode { Log = log };
        try
        {
            return new BreakpointCode { Condition = HitExpression.Parse(condition), Log = log };
        }
        catch (EvalException error)
        {
            string reason = error.Message.StartsWith("cannot evaluate '", StringComparison.Ordinal)
                ? error.Message[(error.Message.IndexOf("': ", StringComparison.Ordinal) + 3)..] : error.Message;
            if (reason.StartsWith("unsupported syntax (", StringComparison.Ordinal) && reason.EndsWith(')'))
                reason = reason["unsupported syntax (".Length..^1];  // Roslyn's own words

            return new BreakpointCode { Log = log, Error = $"condition '{condition}' is not a C# expression: {reason}" };
        }
    }
}
