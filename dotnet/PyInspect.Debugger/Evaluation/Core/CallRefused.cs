// The read-only evaluation's refusal: an expression that would run debuggee code (a method,
// a getter that is not an auto-property, a constructor) names the call instead of running it,
// so the caller can decide to allow it (DAP evaluate without noSideEffects, MCP evaluate_with_calls).
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Evaluation.Core;

public sealed class CallRefusedException(string call)
    : EvalException($"{Marker}: {call}; this evaluation is read-only (no side effects), so it runs no debuggee code")
{
    /// <summary>Stable text clients match on (pyinspect maps it to EVALUATION_NEEDS_CALL).</summary>
    public const string Marker = "needs a call into the debuggee (func-eval)";

    public string Call { get; } = call;

    /// <summary>"Type.Method" of a debuggee function, as metadata names it.</summary>
    public static string NameOf(ICorDebugFunction function)
    {
        try
        {
            if (function.GetModule(out var module) < 0 || function.GetToken(out int token) < 0) return "a method";
            string path = DebuggerEngine.ModuleName(module);
            return File.Exists(path) ? ModuleMetadata.Open(path).GetMethodDisplayName(token) : $"method 0x{token:X8}";
        }
        catch (Exception error) when (error is IOException or BadImageFormatException or InvalidOperationException)
        {
            return "a method";
        }
    }
}
