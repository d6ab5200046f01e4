// The expression evaluator's contexts: for evaluate requests (a frame the client named) and
// for breakpoint conditions and log points (the top frame of the thread that hit). After a
// func-eval the frame is found again by its stack range (the run neutered the old one).
using System.Runtime.CompilerServices;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Evaluation;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public sealed class FrameEvaluator(Debuggee debuggee)
{
    /// <summary>Func-eval for the evaluator (getters, methods, strings and values passed to them).</summary>
    private IDebuggeeCalls? EvaluatorCalls => debuggee.Engine is null ? null : debuggee.Calls;

    /// <summary>Where each frame handed out sits on its stack, remembered while its ICorDebugFrame still answers.</summary>
    private static readonly ConditionalWeakTable<FrameInfo, StrongBox<ulong>> FrameStarts = new();

    /// <summary>noSideEffects: no debuggee code runs (calls are refused by name) and nothing is assigned.</summary>
    public EvalContext NewEvalContext(FrameInfo frame, int? itemBudget = null, TimeSpan? timeBudget = null, bool allowAssignments = true,
        bool noSideEffects = false)
    {
        FrameInfo live = Revive(frame);
        ulong start = FrameStarts.TryGetValue(live, out var box) ? box.Value : 0;
        return new EvalContext(live, debuggee.Modules, noSideEffects ? null : EvaluatorCalls, () => Remember(FindFrame(live.ThreadId, start), frame))
        {
            CallsRefused = noSideEffects,
            ReadMemory = (address, buffer) => debuggee.Engine?.ReadMemory(address, buffer) ?? 0,
            ItemBudget = itemBudget ?? EvalContext.DefaultItemBudget,
            AllowAssignments = allowAssignments && !noSideEffects,
            TimeBudget = timeBudget ?? EvalContext.DefaultTimeBudget,
            CurrentException = () => debuggee.Thread(live.ThreadId) is { } thread && thread.GetCurrentException(out var exception) >= 0
                ? exception : null,
        };
    }

    /// <summary>The frame itself, or (after a func-eval neutered it) the same frame found again on its thread.</summary>
    private FrameInfo Revive(FrameInfo frame)
    {
        if (frame.Frame.GetIP(out _, out _) >= 0 && frame.Frame.GetStackRange(out ulong low, out _) >= 0)
        {
            FrameStarts.AddOrUpdate(frame, new StrongBox<ulong>(low));
            return frame;
        }
        FrameInfo? again = FrameStarts.TryGetValue(frame, out var box) ? FindFrame(frame.ThreadId, box.Value) : null;
        again ??= debuggee.Thread(frame.ThreadId) is { } thread
            ? debuggee.Walk(frame.ThreadId, thread).FirstOrDefault(f =>
                f.MethodToken == frame.MethodToken && f.ModulePath == frame.ModulePath && f.IlOffset == frame.IlOffset)
            : null;
        return Remember(again, frame) ?? frame;
    }

    private static FrameInfo? Remember(FrameInfo? fresh, FrameInfo original)
    {
        if (fresh is not null && fresh.Frame.GetStackRange(out ulong low, out _) >= 0)
        {
            FrameStarts.AddOrUpdate(fresh, new StrongBox<ulong>(low));
            FrameStarts.AddOrUpdate(original, new StrongBox<ulong>(low));
        }
        return fresh;
    }

    private FrameInfo? FindFrame(uint threadId, ulong stackStart)
    {
        if (debuggee.Thread(threadId) is not { } thread) return null;
        foreach (FrameInfo candidate in debuggee.Walk(threadId, thread))
            if (candidate.Frame.GetStackRange(out ulong low, out _) >= 0 && low == stackStart) return candidate;
        return null;
    }

    /// <summary>The top frame with code of a thread that just hit a breakpoint.</summary>
    private EvalContext? HitContext(uint threadId)
    {
        FrameInfo? top = debuggee.TopFrame(threadId);
        return top is null ? null : NewEvalContext(top);
    }

    /// <summary>null when the condition holds or cannot be evaluated (then `why` says why), else false.</summary>
    public bool ConditionHolds(uint threadId, string condition, out string? why)
    {
        why = null;
        try
        {
            using EvalContext context = HitContext(threadId) ?? throw new EvalException("no frame to evaluate it in");
            return ExpressionEvaluator.Condition(condition, context);
        }
        catch (Exception error) when (error is EvalException or EngineException or ValuePathException)
        {
            why = error.Message;
            return true;
        }
        catch (Exception error)
        {
            why = $"{error.GetType().Name}: {error.Message}";
            return true;
        }
    }

    public string LogMessage(uint threadId, string message)
    {
        using EvalContext? context = HitContext(threadId);
        return context is null ? message : ExpressionEvaluator.Interpolate(message, context);
    }
}
