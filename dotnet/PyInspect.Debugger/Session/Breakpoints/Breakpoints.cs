// Source and function breakpoints (the table of what the client asked and where it bound)
// and what a hit of one means: a stop, a log line, or nothing (a condition that does not
// hold, a hit count not reached). The stop itself is the session's to announce.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Session;

public sealed class Breakpoints(Debuggee debuggee, FrameEvaluator evaluator)
{
    private readonly BreakpointTable _table = new();

    /// <summary>How the debuggee's source paths map to the client's (launch/attach `sourceFileMap`).</summary>
    public SourceFileMap Map
    {
        get => _table.Map;
        set => _table.Map = value;
    }

    /// <summary>launch/attach `justMyCode`: no breakpoint binds in code marked as not the user's.</summary>
    public bool JustMyCode
    {
        get => _table.JustMyCode;
        set => _table.JustMyCode = value;
    }

    /// <summary>A file's whole set (or, by BreakpointTable.FunctionsKey, the function
    /// breakpoints), bound now where modules are loaded, pending until one loads.</summary>
    public IReadOnlyList<SourceBreakpoint> Replace(string key, IReadOnlyList<BreakpointRequest> requests) =>
        debuggee.Engine is { HasExited: false } engine
            ? engine.WhileStopped(() => _table.Replace(key, requests, debuggee.Modules.WithSymbols()))
            : _table.Replace(key, requests, []);

    /// <summary>Binds pending breakpoints in a module just loaded; those that changed.</summary>
    public IReadOnlyList<SourceBreakpoint> BindModule(LoadedModule module) => _table.BindModule(module);

    /// <summary>A breakpoint callback: the stop it leads to, or null to run on (not ours, a
    /// condition that does not hold, a hit count not reached, a log point). Every breakpoint
    /// bound at the location is asked; the stop names each one that stops.</summary>
    public StopEvent? Hit(uint threadId, ICorDebugFunctionBreakpoint breakpoint)
    {
        var (here, at) = _table.Find(breakpoint);
        var stopping = new JsonArray();
        var hitCounts = new JsonArray();
        foreach (SourceBreakpoint bp in here)
        {
            if (!Stops(threadId, bp, at)) continue;
            stopping.Add(bp.Id);
            hitCounts.Add(bp.HitCount);
        }
        return stopping.Count > 0 ? new StopEvent("breakpoint", threadId, stopping, HitCounts: hitCounts) : null;
    }

    private bool Stops(uint threadId, SourceBreakpoint bp, BoundAt at)
    {
        BreakpointCode code = bp.Code;
        if (code.Condition is { } condition)
        {
            if (!evaluator.ConditionHolds(threadId, at, condition, out string? why)) return false;
            if (why is not null)
            {
                debuggee.SendOutput("console", $"Breakpoint condition '{condition.Text}' could not be evaluated, so the breakpoint stopped: {why}\n");
                return true;
            }
        }
        if (!bp.CountHit()) return false;
        if (code.Log is { } message)
        {
            debuggee.SendOutput("console", evaluator.LogMessage(threadId, at, message) + "\n");
            return false;
        }
        return true;
    }
}
