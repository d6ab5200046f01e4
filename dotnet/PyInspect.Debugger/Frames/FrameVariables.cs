// A frame's `this`, arguments (names from metadata) and locals in scope (names and slots
// from the PDB), in that order, as netcoredbg's single "Locals" scope shows them.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Frames;

public sealed record FrameVariable(string Name, string Kind, ICorDebugValue? Value, int ErrorCode)
{
    /// <summary>What an ICorDebug read answered: the value, or none and why (the HRESULT).</summary>
    public static FrameVariable Read(string name, string kind, int hr, ICorDebugValue? value) =>
        new(name, kind, hr < 0 ? null : value, hr);
}

public static class FrameVariables
{
    /// <summary>As the source names them: state machines and closures opened up.</summary>
    public static List<FrameVariable> Raw(FrameInfo frame) =>
        ClosureFrames.Open(StateMachineFrames.Variables(frame) ?? Declared(frame));

    /// <summary>The frame's own `this`, arguments and PDB locals.</summary>
    private static List<FrameVariable> Declared(FrameInfo frame)
    {
        var variables = new List<FrameVariable>();
        ModuleMetadata? metadata = File.Exists(frame.ModulePath) ? ModuleMetadata.Open(frame.ModulePath) : null;
        if (metadata is null) return variables;
        bool isStatic = metadata.IsStatic(frame.MethodToken);
        if (!isStatic) variables.Add(Argument(frame, "this", "this", 0));
        IReadOnlyList<string> parameters = metadata.GetParameterNames(frame.MethodToken);
        for (int i = 0; i < parameters.Count; i++)
            variables.Add(Argument(frame, parameters[i], "argument", (uint)(isStatic ? i : i + 1)));
        foreach (LocalInfo local in frame.Module?.Symbols?.GetLocals(frame.MethodToken, (int)frame.IlOffset) ?? [])
        {
            int hr = frame.Frame.GetLocalVariable((uint)local.SlotIndex, out var value);
            variables.Add(FrameVariable.Read(local.Name, "local", hr, value));
        }
        return variables;
    }

    private static FrameVariable Argument(FrameInfo frame, string name, string kind, uint index)
    {
        int hr = frame.Frame.GetArgument(index, out var value);
        return FrameVariable.Read(name, kind, hr, value);
    }

    public static List<VariableView> Read(FrameInfo frame, bool hex) =>
        [.. Raw(frame).Select(v => v.Value is null
            ? new VariableView(v.Name, $"<unavailable: 0x{v.ErrorCode:X8}>", "?", v.Name, null, null, Kind: v.Kind)
            : VariableReader.Describe(v.Name, v.Name, v.Value, hex) with { Kind = v.Kind })];
}
