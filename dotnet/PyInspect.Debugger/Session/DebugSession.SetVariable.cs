// setVariable: a primitive (parsed with C#'s range checks), a string (made in the debuggee
// by func-eval) or null written into a local, an argument, a field or an array element of
// the stopped process. Making a string runs code, which leaves values read before it
// stale, so the target is located afresh after that.
using System.Text.Json.Nodes;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public sealed partial class DebugSession
{
    private JsonNode SetVariable(JsonObject arguments)
    {
        DebuggerEngine engine = RequireStopped();
        object source = _handles.Variables(RequiredInt(arguments, "variablesReference"));
        string name = arguments["name"]?.GetValue<string>() ?? throw new DapException("setVariable needs 'name'");
        string text = arguments["value"]?.GetValue<string>()?.Trim() ?? throw new DapException("setVariable needs 'value'");
        bool hex = arguments["format"]?["hex"]?.GetValue<bool>() ?? false;
        ICorDebugValue target = Locate(engine, source, name);
        target.GetType(out int elementType);
        if (TypeNames.PrimitiveAlias(elementType) is not null && elementType != CorElementType.String && target is ICorDebugGenericValue generic)
            WritePrimitive(generic, elementType, text);
        else if (target is ICorDebugReferenceValue)
            WriteReference(engine, source, name, elementType, text);
        else
            throw new DapException($"'{name}' cannot be set: only primitives, strings and null can be assigned");
        VariableView view = VariableReader.Describe(name, name, Locate(engine, source, name), hex);
        var answer = new JsonObject
        {
            ["value"] = view.Value,
            ["type"] = view.Type,
            ["variablesReference"] = view.Children is null ? 0 : _handles.AddVariables(view.Children),
        };
        if (view.Address is { } address) answer["memoryReference"] = $"0x{address:x}";
        return answer;
    }

    private static unsafe void WritePrimitive(ICorDebugGenericValue target, int elementType, string text)
    {
        byte[] bytes;
        try { bytes = PrimitiveText.Parse(elementType, text); }
        catch (FormatException error) { throw new DapException(error.Message); }
        fixed (byte* raw = bytes)
            EngineException.ThrowIfFailed(target.SetValue((nint)raw), "ICorDebugGenericValue.SetValue");
    }

    private void WriteReference(DebuggerEngine engine, object source, string name, int elementType, string text)
    {
        ulong address = 0;
        if (text != "null")
        {
            if (elementType != CorElementType.String || text.Length < 2 || text[0] != '"' || text[^1] != '"')
                throw new DapException($"'{name}' takes null{(elementType == CorElementType.String ? " or a \"string\"" : "")}");
            var made = (ICorDebugReferenceValue)Calls.NewString(_stopThreadId, System.Text.RegularExpressions.Regex.Unescape(text[1..^1]));
            made.GetValue(out address);
        }
        var target = (ICorDebugReferenceValue)Locate(engine, source, name);
        EngineException.ThrowIfFailed(target.SetValue(address), "ICorDebugReferenceValue.SetValue");
    }

    /// <summary>The named variable in a frame's locals, an object's fields or an array's elements, read now.</summary>
    private ICorDebugValue Locate(DebuggerEngine engine, object source, string name)
    {
        ICorDebugValue? found = source switch
        {
            FrameInfo frame => FrameVariables.Raw(Refreshed(engine, frame)).FirstOrDefault(v => v.Name == name)?.Value,
            ObjectChildren obj => VariableReader.InstanceFields(obj.Type)
                .Where(f => f.Field.DisplayName == name)
                .Select(f => obj.Current().GetFieldValue(f.Class, f.Field.Token, out var value) >= 0 ? value : null)
                .FirstOrDefault(),
            ArrayChildren array => ElementNamed(array, name),
            _ => null,
        };
        return found ?? throw new DapException($"no variable '{name}' to set here");
    }

    /// <summary>The same frame walked again: frames read before a func-eval are stale after it.</summary>
    private FrameInfo Refreshed(DebuggerEngine engine, FrameInfo frame)
    {
        if (engine.GetThread(frame.ThreadId) is not { } thread) return frame;
        return FrameWalker.Walk(frame.ThreadId, thread, _modules).FirstOrDefault(f =>
            f.MethodToken == frame.MethodToken && f.IlOffset == frame.IlOffset && f.ModulePath == frame.ModulePath) ?? frame;
    }

    private static ICorDebugValue? ElementNamed(ArrayChildren array, string name)
    {
        int total = (int)array.Dimensions.Aggregate(1L, (acc, d) => acc * d);
        for (int position = 0; position < total; position++)
            if ($"[{ChildReader.IndexText(array.Dimensions, position)}]" == name)
                return array.Array.GetElementAtPosition((uint)position, out var value) >= 0 ? value : null;
        return null;
    }
}
