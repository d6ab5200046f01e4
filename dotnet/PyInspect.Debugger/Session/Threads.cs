// The debuggee's threads as DAP lists them: ids with names. Names are read while the process
// is synchronized (attach, stops) and remembered, so a `threads` request while it runs
// answers without stopping it.
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Session;

public sealed class Threads(Debuggee debuggee)
{
    private readonly Dictionary<uint, string> _threadNames = [];

    /// <summary>While stopped, read from the process (names included, and remembered); while
    /// running, the threads the callbacks reported with the names last read.</summary>
    public IReadOnlyList<(uint Id, string Name)> List()
    {
        DebuggerEngine engine = debuggee.RequireEngine();
        bool readable = engine.IsSynchronized;
        return [.. engine.GetThreadIds().Select(id => (id, readable ? RememberName(engine, id) : KnownName(engine, id)))];
    }

    /// <summary>Read every thread's name while the process is synchronized (attach, stops).</summary>
    public void RememberNames(DebuggerEngine engine)
    {
        foreach (uint id in engine.GetThreadIds()) RememberName(engine, id);
    }

    private string RememberName(DebuggerEngine engine, uint id)
    {
        string name = ThreadNames.Read(engine, id);
        lock (_threadNames) _threadNames[id] = name;
        return name;
    }

    private string KnownName(DebuggerEngine engine, uint id)
    {
        lock (_threadNames)
            if (_threadNames.TryGetValue(id, out string? name)) return name;
        return ThreadNames.Read(engine, id);  // the fallback name: the process is not synchronized
    }

    /// <summary>The thread a pause reports: the first one running code with source, else the first.</summary>
    public uint PickPauseThread(DebuggerEngine engine)
    {
        IReadOnlyList<uint> ids = engine.GetThreadIds();
        foreach (uint id in ids)
            if (engine.GetThread(id) is { } thread && debuggee.Walk(id, thread, 64).Any(f => f.Source is not null))
                return id;
        return ids.Count > 0 ? ids[0] : 0;
    }
}
