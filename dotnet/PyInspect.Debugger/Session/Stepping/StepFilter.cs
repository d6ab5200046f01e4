// What stepping treats as the user's code, as VS Code's .NET debuggers do by default:
// `justMyCode` (true unless the launch/attach says false) and `enableStepFiltering`
// (netcoredbg's name; true unless false). The runtime's just-my-code steppers do the
// walking; this marks methods for them when a module loads and tells the session which
// arrivals of a step in to pass over (property accessors and operators).
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Session;

public sealed class StepFilter
{
    private const uint JitDisableOptimization = 0x3;  // CORDEBUG_JIT_DISABLE_OPTIMIZATION

    public bool JustMyCode { get; private set; } = true;
    public bool FilterAccessorsAndOperators { get; private set; } = true;

    /// <summary>Takes both flags from launch or attach arguments (absent: true); anything but a boolean is refused.</summary>
    public void Configure(JsonObject arguments)
    {
        JustMyCode = DapArguments.Flag(arguments, "justMyCode", absent: true);
        FilterAccessorsAndOperators = DapArguments.Flag(arguments, "enableStepFiltering", absent: true);
    }

    /// <summary>A module with symbols just loaded: it is user code; methods marked step-through
    /// (async kickoff stubs among them) are not, nor those without a line of source (a state
    /// machine's constructor: a step in stopping there could only step out past the kickoff
    /// stub and miss the MoveNext it calls), nor, under just-my-code, non-user-code ones.
    /// Without just-my-code the JIT is asked not to optimise it, so a release build with a
    /// PDB can be stepped too (where the runtime still allows it: not after attach). An
    /// optimised module the runtime refuses as user code is stepped over like code without source.</summary>
    public void MarkUserCode(LoadedModule module)
    {
        if (module.Symbols is null || module.Module is not ICorDebugModule2 jmc) return;
        if (!JustMyCode) jmc.SetJITCompilerFlags(JitDisableOptimization);
        if (jmc.SetJMCStatus(1, 0, 0) < 0) return;
        MethodTraits traits = MethodTraits.Open(module.Path);
        ModuleSymbols symbols = module.Symbols;
        IEnumerable<int> notMine = (JustMyCode ? traits.StepThrough.Concat(traits.NonUserCode) : traits.StepThrough)
            .Concat(traits.Methods.Where(token => !symbols.HasSource(token)));
        foreach (int token in notMine)
            if (module.Module.GetFunctionFromToken(token, out var function) >= 0 && function is ICorDebugFunction2 marked)
                marked.SetJMCStatus(0);
    }

    /// <summary>A method of a module with symbols that is the user's: not stepped through
    /// ([DebuggerStepThrough], [DebuggerHidden]) and, under just-my-code, not [DebuggerNonUserCode].</summary>
    public bool IsUserCode(string modulePath, int methodToken)
    {
        MethodTraits traits = MethodTraits.Open(modulePath);
        return !traits.StepThrough.Contains(methodToken) && !(JustMyCode && traits.NonUserCode.Contains(methodToken));
    }

    /// <summary>Does a step in that arrived in this method pass over it (a property accessor or an operator)?</summary>
    public bool PassesOver(FrameInfo frame) =>
        FilterAccessorsAndOperators && frame.Module is { Symbols: not null } module
        && MethodTraits.Open(module.Path).IsAccessorOrOperator(frame.MethodToken);
}
