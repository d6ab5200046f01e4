// gotoTargets / goto ("set next statement", "jump to cursor"): the stopped thread's next
// statement moved to another line of the method it is in (ICorDebugILFrame.SetIP). The
// runtime refuses jumps it cannot make safely (into or out of exception handlers, where the
// evaluation stack is not empty); those come back as errors and nothing moves.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Protocol;

namespace PyInspect.Debugger.Session;

public sealed class GotoTargets(Debuggee debuggee)
{
    /// <summary>A line the next statement could move to: where its code starts in one method.</summary>
    private sealed record GotoTarget(int Id, string ModulePath, int MethodToken, int IlOffset, int Line);

    private readonly List<GotoTarget> _gotoTargets = [];
    private int _nextGotoId;

    /// <summary>Where code starts on the line (one target per method with code there), as DAP's gotoTargets lists them.</summary>
    public JsonArray Find(string path, int line)
    {
        var targets = new JsonArray();
        foreach (LoadedModule module in debuggee.Modules.WithSymbols())
            foreach (var resolved in module.Symbols!.ResolveLine(path, line))
            {
                var target = new GotoTarget(++_nextGotoId, module.Path, resolved.MethodToken, resolved.IlOffset, resolved.Line);
                _gotoTargets.Add(target);
                targets.Add(new JsonObject
                {
                    ["id"] = target.Id, ["label"] = $"line {resolved.Line}", ["line"] = resolved.Line,
                    ["column"] = resolved.Column, ["endLine"] = resolved.EndLine, ["endColumn"] = resolved.EndColumn,
                });
            }
        return targets;
    }

    /// <summary>Moves the thread's next statement to a target found before; the stop that follows is the caller's to announce.</summary>
    public void Jump(uint threadId, int targetId)
    {
        DebuggerEngine engine = debuggee.RequireStopped();
        GotoTarget target = _gotoTargets.FirstOrDefault(t => t.Id == targetId)
            ?? throw new DapException($"Unknown goto target {targetId} (ask gotoTargets first)");
        ICorDebugThread thread = engine.GetThread(threadId) ?? throw new DapException($"Unknown thread {threadId}");
        FrameInfo top = debuggee.Walk(threadId, thread, 1).FirstOrDefault()
            ?? throw new DapException($"thread {threadId} has no managed frame with code");
        if (top.MethodToken != target.MethodToken || top.ModulePath != target.ModulePath)
            throw new DapException($"line {target.Line} is not in {top.Name}, where thread {threadId} is stopped: the next statement can only move within the current method");
        int hr = top.Frame.CanSetIP((uint)target.IlOffset);
        if (hr >= 0) hr = top.Frame.SetIP((uint)target.IlOffset);
        if (hr < 0)
            throw new DapException($"the runtime cannot move the next statement to line {target.Line} (0x{hr:X8}): "
                + "it does not jump into or out of try/catch/finally blocks, nor where values are still on the evaluation stack");
        _gotoTargets.Clear();
    }
}
