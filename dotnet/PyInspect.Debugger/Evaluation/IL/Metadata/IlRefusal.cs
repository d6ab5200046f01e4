// The interpreter's refusal: what it will not or cannot run (a token it cannot resolve, a
// method its policy forbids, an instruction it does not model), named so the caller can say why.
namespace PyInspect.Debugger.Evaluation.IL.Metadata;

/// <summary>Why the interpreter stops without an answer; the reason completes "Type.Method (reason)".</summary>
public sealed class IlRefusal(string reason) : Exception(reason)
{
    public string Reason { get; } = reason;
    /// <summary>The method being interpreted when it refused (innermost), filled as the refusal unwinds.</summary>
    public string? Method { get; set; }
    /// <summary>Refuses calling a method at all (the policy's refusals): the caller is where it refused.</summary>
    public bool OfTheCall { get; set; }
}
