// A thread's managed frames, leaf first, with names and source positions from metadata
// and portable PDBs. Frames without IL (runtime stubs, native code) are left out.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Frames;

public sealed record FrameInfo(uint ThreadId, ICorDebugILFrame Frame, int MethodToken, uint IlOffset,
    string ModulePath, LoadedModule? Module, string Name, SourceSpan? Source)
{
    public string ModuleName => Path.GetFileName(ModulePath);
}

public static class FrameWalker
{
    private const int CorDbgSAtEndOfStack = 0x00131324;

    public static List<FrameInfo> Walk(uint threadId, ICorDebugThread thread, ModuleCatalog modules, int maxFrames = 10000)
    {
        var frames = new List<FrameInfo>();
        if (thread is not ICorDebugThread3 thread3 || thread3.CreateStackWalk(out var walk) < 0) return frames;
        for (int guard = 0; guard < 100000 && frames.Count < maxFrames; guard++)
        {
            if (walk.GetFrame(out var frame) == 0 && frame is ICorDebugILFrame il && Describe(threadId, il, modules) is { } info)
                frames.Add(info);
            int hr = walk.Next();
            if (hr != 0 || hr == CorDbgSAtEndOfStack) break;
        }
        return frames;
    }

    private static FrameInfo? Describe(uint threadId, ICorDebugILFrame frame, ModuleCatalog modules)
    {
        if (frame.GetFunctionToken(out int token) < 0 || frame.GetIP(out uint ip, out _) < 0) return null;
        if (frame.GetFunction(out var function) < 0 || function.GetModule(out var module) < 0) return null;
        string path = DebuggerEngine.ModuleName(module);
        LoadedModule? loaded = modules.Find(path);
        string name = MethodName(path, token);
        SourceSpan? source = loaded?.Symbols?.GetSourceSpan(token, (int)ip);
        return new FrameInfo(threadId, frame, token, ip, path, loaded, name, source);
    }

    /// <summary>A method as frames show it: the state machine or closure behind it named as written.</summary>
    internal static string MethodName(string modulePath, int token)
    {
        try
        {
            return File.Exists(modulePath)
                ? ClosureFrames.DisplayName(StateMachineFrames.DisplayName(ModuleMetadata.Open(modulePath).GetMethodDisplayName(token))) + "()"
                : $"0x{token:X8}()";
        }
        catch (Exception e) when (e is IOException or BadImageFormatException or ArgumentException) { return $"0x{token:X8}()"; }
    }
}
