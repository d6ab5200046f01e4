// Frame ids and variable references handed to the client: valid until the debuggee
// resumes, then rejected. Ids keep counting up, so a stale id never names a new thing.
using PyInspect.Debugger.Frames;

namespace PyInspect.Debugger.Session;

public sealed class StopHandles
{
    private readonly object _gate = new();
    private readonly Dictionary<int, (FrameInfo Frame, int Generation)> _frames = [];
    private readonly Dictionary<int, object> _variables = [];
    private int _next = 1000;

    /// <summary>A frame read at the engine's current evaluation generation.</summary>
    public int AddFrame(FrameInfo frame, int generation)
    {
        lock (_gate) { _frames[++_next] = (frame, generation); return _next; }
    }

    public int AddVariables(object source)
    {
        lock (_gate) { _variables[++_next] = source; return _next; }
    }

    /// <summary>The frame behind an id, walked again (`refresh`) when a func-eval has run since
    /// it was read: an evaluation lets the process run, which leaves frame objects stale.</summary>
    public FrameInfo Frame(int id, int generation, Func<FrameInfo, FrameInfo> refresh)
    {
        lock (_gate)
        {
            if (!_frames.TryGetValue(id, out var entry))
                throw new Protocol.DapException($"Unknown frame id {id}: frame ids are valid until the process resumes");
            if (entry.Generation == generation) return entry.Frame;
            FrameInfo fresh = refresh(entry.Frame);
            _frames[id] = (fresh, generation);
            return fresh;
        }
    }

    public object Variables(int id)
    {
        lock (_gate)
            return _variables.TryGetValue(id, out var source) ? source
                : throw new Protocol.DapException($"Unknown variablesReference {id}: references are valid until the process resumes");
    }

    /// <summary>Forget every id; release the debuggee's GC handles they held (call while stopped).</summary>
    public void Clear()
    {
        lock (_gate)
        {
            foreach (var source in _variables.Values)
                if (source is Values.ObjectChildren { Handle: { } handle }) handle.Dispose();
            _frames.Clear();
            _variables.Clear();
        }
    }
}
