// Locals a lambda captured live in a compiler-generated "display class" object: the method
// holds it in a local named `CS$<>8__locals0`, the lambda runs with it as `this`. Both
// frames show the captured variables as plain locals (display classes of outer scopes,
// chained through further `CS$<>8__locals` fields, included), and the lambda's `this` as
// the object the code was written in (`<>4__this`), as the source reads.
using System.Text.RegularExpressions;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Frames;

public static partial class ClosureFrames
{
    /// <summary>The local (or, in a state machine, the name StateMachineFrames gives the field) holding a closure.</summary>
    public const string DisplayClassLocal = "CS$<>8__locals";

    [GeneratedRegex(@"^(?<outer>.+?)\.<>c(?:__DisplayClass[\d_]+)?\.<(?<method><Main>\$|[^>]+)>b__(?<n>[\d_]+)$")]
    private static partial Regex LambdaName();

    [GeneratedRegex(@"^(?<outer>.+?)\.<(?<method><Main>\$|[^>]+)>g__(?<local>[^|]+)\|[\d_]+$")]
    private static partial Regex LocalFunctionName();

    /// <summary>"Ns.T.&lt;&gt;c__DisplayClass1_0.&lt;Run&gt;b__0" as "Ns.T.Run.AnonymousMethod__0", a local
    /// function "Ns.T.&lt;Run&gt;g__Helper|1_0" as "Ns.T.Run.Helper"; top-level statements'
    /// Main keeps its own name, "Program.&lt;Main&gt;$.AnonymousMethod__0_4"; others unchanged.</summary>
    public static string DisplayName(string methodName) =>
        LambdaName().Match(methodName) is { Success: true } m
            ? $"{m.Groups["outer"].Value}.{m.Groups["method"].Value}.AnonymousMethod__{m.Groups["n"].Value}"
            : LocalFunctionName().Match(methodName) is { Success: true } local
                ? $"{local.Groups["outer"].Value}.{local.Groups["method"].Value}.{local.Groups["local"].Value}"
                : methodName;

    /// <summary>The frame's variables with closures opened up (unchanged when there are none).</summary>
    public static List<FrameVariable> Open(List<FrameVariable> variables)
    {
        if (!variables.Any(v => v.Name.StartsWith(DisplayClassLocal, StringComparison.Ordinal) || (v.Kind == "this" && IsCompilerType(v.Value))))
            return variables;
        var opened = new List<FrameVariable>();
        var captured = new List<FrameVariable>();
        foreach (FrameVariable variable in variables)
        {
            if (variable.Kind == "this" && IsCompilerType(variable.Value))
                Expand(variable.Value!, opened, captured, 0);       // a lambda's closure object
            else if (variable.Name.StartsWith(DisplayClassLocal, StringComparison.Ordinal))
            {
                if (variable.Value is not null) Expand(variable.Value, opened, captured, 0);
            }
            else opened.Add(variable);
        }
        // `this` first, then arguments, then locals: captured ones join the locals
        var self = opened.Where(v => v.Kind == "this").Take(1);
        return [.. self, .. opened.Where(v => v.Kind == "argument"), .. captured.Where(c => opened.All(o => o.Name != c.Name)),
            .. opened.Where(v => v.Kind == "local")];
    }

    /// <summary>A display class's fields: captured variables, its `<>4__this`, and outer closures.</summary>
    private static void Expand(ICorDebugValue closure, List<FrameVariable> opened, List<FrameVariable> captured, int depth)
    {
        if (depth > 8 || ValuePath.Dereference(closure) is not ICorDebugObjectValue obj || obj is not ICorDebugValue2 typed
            || typed.GetExactType(out var type) < 0)
            return;
        foreach (var (cls, field) in VariableReader.InstanceFields(type))
        {
            int hr = obj.GetFieldValue(cls, field.Token, out var value);
            if (field.Name == "<>4__this")
            {
                if (!opened.Any(v => v.Kind == "this")) opened.Add(FrameVariable.Read("this", "this", hr, value));
            }
            else if (field.Name.StartsWith(DisplayClassLocal, StringComparison.Ordinal))
            {
                if (hr >= 0) Expand(value, opened, captured, depth + 1);
            }
            else if (!field.Name.StartsWith('<') && captured.All(c => c.Name != field.Name))
                captured.Add(FrameVariable.Read(field.Name, "local", hr, value));
        }
    }

    /// <summary>A closure class (`&lt;&gt;c__DisplayClass…`) or a static lambdas' holder (`&lt;&gt;c`).</summary>
    private static bool IsCompilerType(ICorDebugValue? value) =>
        value is not null && TypeNames.ClassName(value) is { } name && name[(name.LastIndexOfAny(['.', '+']) + 1)..].StartsWith("<>c", StringComparison.Ordinal);
}
