// The expression evaluator's contexts: for evaluate requests (a frame the client named) and
// for breakpoint conditions and log points (the top frame of the thread that hit). After a
// func-eval the frame is found again by its stack range (the run neutered the old one).
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    /// <summary>Func-eval for the evaluator; null until the engine provides it.</summary>
    private IDebuggeeCalls? EvaluatorCalls => null;

    private EvalContext NewEvalContext(FrameInfo frame, bool allowCalls = true)
    {
        ulong start = frame.Frame.GetStackRange(out ulong low, out _) >= 0 ? low : 0;
        return new EvalContext(frame, _modules, allowCalls ? EvaluatorCalls : null, () => FindFrame(frame.ThreadId, start));
    }

    private FrameInfo? FindFrame(uint threadId, ulong stackStart)
    {
        if (_engine?.GetThread(threadId) is not { } thread) return null;
        foreach (FrameInfo candidate in FrameWalker.Walk(threadId, thread, _modules))
            if (candidate.Frame.GetStackRange(out ulong low, out _) >= 0 && low == stackStart) return candidate;
        return null;
    }

    /// <summary>The top frame with code of a thread that just hit a breakpoint.</summary>
    private EvalContext? HitContext(uint threadId)
    {
        if (_engine?.GetThread(threadId) is not { } thread) return null;
        FrameInfo? top = FrameWalker.Walk(threadId, thread, _modules, 1).FirstOrDefault();
        return top is null ? null : NewEvalContext(top, allowCalls: false);
    }

    /// <summary>null when the condition holds or cannot be evaluated (then `why` says why), else false.</summary>
    private bool ConditionHolds(uint threadId, string condition, out string? why)
    {
        why = null;
        try
        {
            EvalContext context = HitContext(threadId) ?? throw new EvalException("no frame to evaluate it in");
            return ExpressionEvaluator.Condition(condition, context);
        }
        catch (EvalException error)
        {
            why = error.Message;
            return true;
        }
    }

    private string LogMessage(uint threadId, string message)
    {
        EvalContext? context = HitContext(threadId);
        return context is null ? message : ExpressionEvaluator.Interpolate(message, context);
    }
}
