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

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    private readonly StepFilter _stepFilter = new();

    /// <summary>A step in stepped out of a method it passes over: when it returns, step in on.</summary>
    private bool _steppingInPastFiltered;

    /// <summary>True when the step goes on with a new stepper (not a stop).</summary>
    private bool StepInGoesOn(uint threadId, ICorDebugThread thread, CorDebugStepReason reason)
    {
        bool pastFiltered = _steppingInPastFiltered;
        _steppingInPastFiltered = false;
        FrameInfo? top = FrameWalker.Walk(threadId, thread, _modules, 1).FirstOrDefault();
        if (reason is not (CorDebugStepReason.Call or CorDebugStepReason.Return)) return false;
        if (top?.Module?.Symbols is not { } symbols) return false;
        if (reason == CorDebugStepReason.Call && _stepFilter.PassesOver(top))
        {
            _activeStepper = Stepping.Begin(threadId, thread, StepKind.Out, _modules);
            _steppingInPastFiltered = true;
            return true;
        }
        if (reason == CorDebugStepReason.Return && pastFiltered && !AtStatementStart(top, symbols))
        {
            _activeStepper = Stepping.Begin(threadId, thread, StepKind.In, _modules);
            return true;
        }
        if (reason == CorDebugStepReason.Call && symbols.IsHiddenAt(top.MethodToken, (int)top.IlOffset))
        {
            _activeStepper = Stepping.Begin(threadId, thread, StepKind.Over, _modules);
            return true;
        }
        if (reason == CorDebugStepReason.Call && top.Source is null)
        {
            _activeStepper = Stepping.Begin(threadId, thread, StepKind.Out, _modules);
            _steppingInPastFiltered = true;
            return true;
        }
        return false;
    }

    /// <summary>Exactly at a statement's first instruction. Back from a call, the IP is inside
    /// a statement and maps to IL only approximately (to the statement's start), so an
    /// approximate mapping means "inside".</summary>
    private static bool AtStatementStart(FrameInfo frame, Symbols.ModuleSymbols symbols) =>
        frame.Frame.GetIP(out uint ip, out int mapping) >= 0 && mapping == MappingExact
        && symbols.IsStatementStart(frame.MethodToken, (int)ip);

    private const int MappingExact = 0x10;  // CorDebugMappingResult.MAPPING_EXACT
}
