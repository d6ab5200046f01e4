// Frame ids and variable references handed to the client: valid until the debuggee
// resumes, then rejected. Ids keep counting up, so a stale id never names a new thing.
namespace PyInspect.Debugger.Session;

public sealed class StopHandles
{
    private readonly object _gate = new();
    private readonly Dictionary<int, FrameInfo> _frames = [];
    private readonly Dictionary<int, object> _variables = [];
    private int _next = 1000;

    public int AddFrame(FrameInfo frame)
    {
        lock (_gate) { _frames[++_next] = frame; return _next; }
    }

    public int AddVariables(object source)
    {
        lock (_gate) { _variables[++_next] = source; return _next; }
    }

    public FrameInfo Frame(int id)
    {
        lock (_gate)
            return _frames.TryGetValue(id, out var frame) ? frame
                : throw new Protocol.DapException($"Unknown frame id {id}: frame ids are valid until the process resumes");
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
