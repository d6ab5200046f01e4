// Where a step in goes on instead of stopping, as Visual Studio's does. The runtime's
// just-my-code stepper stops at the first instruction of the user method it enters:
// - a property accessor or operator (step filtering, on by default): step out of it and,
//   back in the caller, step in on through the rest of the statement;
// - an async method: its kickoff stub is marked step-through (StepFilter), so the stepper
//   arrives in the state machine's MoveNext, in the compiler's state dispatch before any
//   line: step over that hidden code to the method's first line;
// - a method without source (a state machine's or a record's compiler-made constructor):
//   step out and in on, as for a filtered one.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;

namespace PyInspect.Debugger.Session;

public sealed class StepInOn(Debuggee debuggee, StepFilter stepFilter)
{
    /// <summary>A step in stepped out of a method it passes over: when it returns, step in on.</summary>
    private bool _steppingInPastFiltered;

    /// <summary>A new step starts: nothing is being passed over.</summary>
    public void Reset() => _steppingInPastFiltered = false;

    /// <summary>The step that goes on (a new stepper of that kind), or null: a stop.</summary>
    public StepKind? GoesOn(uint threadId, ICorDebugThread thread, CorDebugStepReason reason)
    {
        bool pastFiltered = _steppingInPastFiltered;
        _steppingInPastFiltered = false;
        if (reason is not (CorDebugStepReason.Call or CorDebugStepReason.Return)) return null;
        FrameInfo? top = debuggee.Walk(threadId, thread, 1).FirstOrDefault();
        if (top?.Module?.Symbols is not { } symbols) return null;
        if (reason == CorDebugStepReason.Call && stepFilter.PassesOver(top))
        {
            _steppingInPastFiltered = true;
            return StepKind.Out;
        }
        if (reason == CorDebugStepReason.Return && pastFiltered && !AtStatementStart(top, symbols))
            return StepKind.In;
        if (reason == CorDebugStepReason.Call && symbols.IsHiddenAt(top.MethodToken, (int)top.IlOffset))
            return StepKind.Over;
        if (reason == CorDebugStepReason.Call && top.Source is null)
        {
            _steppingInPastFiltered = true;
            return StepKind.Out;
        }
        return null;
    }

    /// <summary>Exactly at a statement's first instruction. Back from a call, the IP is inside
    /// a statement and maps to IL only approximately (to the statement's start), so an
    /// approximate mapping means "inside".</summary>
    public static bool AtStatementStart(FrameInfo frame, Symbols.ModuleSymbols symbols) =>
        frame.Frame.GetIP(out uint ip, out int mapping) >= 0 && mapping == MappingExact
        && symbols.IsStatementStart(frame.MethodToken, (int)ip);

    private const int MappingExact = 0x10;  // CorDebugMappingResult.MAPPING_EXACT
}
