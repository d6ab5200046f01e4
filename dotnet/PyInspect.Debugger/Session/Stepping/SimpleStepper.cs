// A plain step with ICorDebugStepper: over and into step through the IL ranges of the
// current statement (from the PDB), out returns to the caller. Steppers are "just my
// code": modules with symbols are user code, so stepping stays in code with source.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public static class SimpleStepper
{
    private const int InterceptAllButClassInitAndSecurity = 0xffff & ~(0x01 | 0x04);
    private const int StopNone = 0;

    public static unsafe ICorDebugStepper Begin(uint threadId, ICorDebugThread thread, StepKind kind, ModuleCatalog modules)
    {
        if (thread.GetActiveFrame(out var frame) < 0 || frame is null)
            throw new DapException($"thread {threadId} has no managed frame to step from");
        EngineException.ThrowIfFailed(frame.CreateStepper(out var stepper), "ICorDebugFrame.CreateStepper");
        stepper.SetUnmappedStopMask(StopNone);
        stepper.SetInterceptMask(InterceptAllButClassInitAndSecurity);
        (stepper as ICorDebugStepper2)?.SetJMC(1);
        if (kind == StepKind.Out)
        {
            EngineException.ThrowIfFailed(stepper.StepOut(), "ICorDebugStepper.StepOut");
            return stepper;
        }
        int stepIn = kind == StepKind.In ? 1 : 0;
        var ranges = StatementRanges(frame, modules);
        if (ranges.Length == 0)
        {
            // A frame without source (the compiler's `<Main>` of an async Main): a step over
            // would run the whole call it is in; a just-my-code step in stops at the next line
            // of user code, inside the call or back in a caller.
            EngineException.ThrowIfFailed(stepper.Step(1), "ICorDebugStepper.Step");
            return stepper;
        }
        fixed (CorDebugStepRange* p = ranges)
            EngineException.ThrowIfFailed(stepper.StepRange(stepIn, p, (uint)ranges.Length), "ICorDebugStepper.StepRange");
        return stepper;
    }

    private static CorDebugStepRange[] StatementRanges(ICorDebugFrame frame, ModuleCatalog modules)
    {
        if (frame is not ICorDebugILFrame il || il.GetIP(out uint ip, out _) < 0 || il.GetFunctionToken(out int token) < 0)
            return [];
        if (il.GetFunction(out var function) < 0 || function.GetModule(out var module) < 0) return [];
        var symbols = modules.Find(module)?.Symbols;
        if (symbols is null) return [];
        return [.. symbols.GetStepRanges(token, (int)ip)
            .Select(r => new CorDebugStepRange { StartOffset = (uint)r.Start, EndOffset = (uint)r.End })];
    }
}
