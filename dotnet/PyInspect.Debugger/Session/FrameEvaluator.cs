// The expression evaluator's contexts: for evaluate requests (a frame the client named) and
// for breakpoint conditions and log points (the top frame of the thread that hit). After a
// func-eval the frame is found again by its stack range (the run neutered the old one).
using System.Runtime.CompilerServices;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Evaluation;
using PyInspect.Debugger.Evaluation.Conditions;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;
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
        bool noSideEffects = false, bool interpretCalls = false)
    {
        FrameInfo live = Revive(frame);
        ulong start = FrameStarts.TryGetValue(live, out var box) ? box.Value : 0;
        return new EvalContext(live, debuggee.Modules, noSideEffects ? null : EvaluatorCalls, () => Remember(FindFrame(live.ThreadId, start), frame))
        {
            CallsRefused = noSideEffects,
            InterpretCalls = interpretCalls,
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

    /// <summary>Where a breakpoint fired: the thread's saved registers (no stack walk), objects by address and,
    /// made only if the condition needs it, its active frame (the method the breakpoint is bound in).</summary>
    private HitSite? SiteOf(uint threadId, BoundAt at)
    {
        if (debuggee.Engine is not { } engine || debuggee.Modules.Find(at.ModulePath) is not { } module) return null;
        if (!engine.ReadStackAndIp(threadId, out ulong sp, out ulong ip)) sp = ip = 0;
        return new HitSite(engine.ProcessId, threadId, debuggee.Modules, module, at.MethodToken, at.IlOffset, sp, ip, engine.ReadMemory,
            engine.ObjectAt, () =>
            debuggee.Thread(threadId) is { } thread && thread.GetActiveFrame(out var active) >= 0 && active is ICorDebugILFrame il ? il : null);
    }

    /// <summary>False when the condition does not hold; true when it holds or cannot be evaluated (then `why` says why).</summary>
    public bool ConditionHolds(uint threadId, BoundAt at, HitExpression condition, out string? why)
    {
        why = null;
        try
        {
            long started = HitProfile.Start();
            HitSite? site = SiteOf(threadId, at);
            HitProfile.Add("site: registers", started);
            started = HitProfile.Start();
            object? value = condition.Evaluate(site, () => HitContext(threadId));
            HitProfile.Add("condition: whole", started);
            HitProfile.Hit();
            return value is bool b ? b
                : throw new EvalException($"the condition is not a bool (it is {Display.RuntimeTypeName(value)} {Display.Format(value, false)})");
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

    public string LogMessage(uint threadId, BoundAt at, LogMessage message)
    {
        HitSite? site = SiteOf(threadId, at);
        return message.Format(hole => hole.Evaluate(site, () => HitContext(threadId)));
    }

    /// <summary>The top frame with code of a thread that just hit a breakpoint, for what the bound form does not read.
    /// Calls are interpreted from IL first (memory reads), func-eval only where the interpreter refuses.</summary>
    private EvalContext HitContext(uint threadId)
    {
        long started = HitProfile.Start();
        FrameInfo? top = debuggee.TopFrame(threadId);
        HitProfile.Add("slow: top frame (stack walk)", started);
        return top is not null ? NewEvalContext(top, interpretCalls: true) : throw new EvalException("no frame to evaluate it in");
    }
}
