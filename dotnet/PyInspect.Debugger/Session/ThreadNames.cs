// A managed thread's name: Thread.Name when the program set one (read from the
// System.Threading.Thread object's _name field), "Main Thread" for the process's first
// thread (its OS id equals the process id), else "Thread #id".
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public static class ThreadNames
{
    public static string Read(DebuggerEngine engine, uint threadId)
    {
        string fallback = threadId == (uint)engine.View.NamespacePid ? "Main Thread" : $"Thread #{threadId}";
        if (!engine.IsSynchronized || engine.GetThread(threadId) is not { } thread) return fallback;
        try
        {
            if (thread.GetObject(out var threadObject) < 0) return fallback;
            var view = ValuePath.Member(threadObject, "_name");
            return view is ICorDebugValue name && VariableReader.Describe("", "", name) is { Value: var text } && text.StartsWith('"')
                ? text[1..^1]
                : fallback;
        }
        catch (Exception e) when (e is ValuePathException or InvalidCastException) { return fallback; }
    }
}
