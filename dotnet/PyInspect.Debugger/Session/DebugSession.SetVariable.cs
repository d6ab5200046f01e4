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
        VariableView view = Assign(name, text, hex, () => Locate(engine, source, name));
        return AssignedJson(view);
    }

    /// <summary>setExpression: an assignable path (a local, an argument, a field path, an
    /// array element) in a frame, given the same values as setVariable.</summary>
    private JsonNode SetExpression(JsonObject arguments)
    {
        RequireStopped();
        string expression = arguments["expression"]?.GetValue<string>()?.Trim() ?? throw new DapException("setExpression needs 'expression'");
        string text = arguments["value"]?.GetValue<string>()?.Trim() ?? throw new DapException("setExpression needs 'value'");
        int frameId = arguments["frameId"]?.GetValue<int>() ?? throw new DapException("setExpression needs a 'frameId'");
        bool hex = arguments["format"]?["hex"]?.GetValue<bool>() ?? false;
        FrameFor(frameId);  // rejects an unknown id now
        VariableView view = Assign(expression, text, hex, () => PathEvaluator.Evaluate(expression, FrameFor(frameId)));
        return AssignedJson(view);
    }

    /// <summary>Write `text` into what `locate` finds; locate runs again after any func-eval.</summary>
    private VariableView Assign(string name, string text, bool hex, Func<ICorDebugValue> locate)
    {
        ICorDebugValue target = locate();
        target.GetType(out int elementType);
        if (TypeNames.PrimitiveAlias(elementType) is not null && elementType != CorElementType.String && target is ICorDebugGenericValue generic)
            WritePrimitive(generic, elementType, text);
        else if (target is ICorDebugReferenceValue)
            WriteReference(name, elementType, text, locate);
        else
            throw new DapException($"'{name}' cannot be set: only primitives, strings and null can be assigned");
        return VariableReader.Describe(name, name, locate(), hex);
    }

    private JsonObject AssignedJson(VariableView view)
    {
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

    private void WriteReference(string name, int elementType, string text, Func<ICorDebugValue> locate)
    {
        ulong address = 0;
        if (text != "null")
        {
            if (elementType != CorElementType.String || text.Length < 2 || text[0] != '"' || text[^1] != '"')
                throw new DapException($"'{name}' takes null{(elementType == CorElementType.String ? " or a \"string\"" : "")}");
            var made = (ICorDebugReferenceValue)Calls.NewString(_stopThreadId, System.Text.RegularExpressions.Regex.Unescape(text[1..^1]));
            made.GetValue(out address);
        }
        var target = (ICorDebugReferenceValue)locate();
        EngineException.ThrowIfFailed(target.SetValue(address), "ICorDebugReferenceValue.SetValue");
    }

    /// <summary>The named variable in a frame's locals, an object's fields or an array's elements, read now.</summary>
    private ICorDebugValue Locate(DebuggerEngine engine, object source, string name)
    {
        ICorDebugValue? found = source switch
        {
            FrameScope scope => FrameVariables.Raw(FrameFor(scope.FrameId)).FirstOrDefault(v => v.Name == name)?.Value,
            ObjectChildren obj => VariableReader.InstanceFields(obj.Type)
                .Where(f => f.Field.DisplayName == name)
                .Select(f => obj.Current().GetFieldValue(f.Class, f.Field.Token, out var value) >= 0 ? value : null)
                .FirstOrDefault(),
            ArrayChildren array => ElementWriter.ArrayElement(array, name),
            CollectionChildren collection => ElementWriter.Locate(collection, name),
            _ => null,
        };
        return found ?? throw new DapException($"no variable '{name}' to set here");
    }

    /// <summary>The same frame walked again (same method and IL offset on its thread).</summary>
    private FrameInfo Refreshed(DebuggerEngine engine, FrameInfo frame)
    {
        if (engine.GetThread(frame.ThreadId) is not { } thread) return frame;
        return FrameWalker.Walk(frame.ThreadId, thread, _modules).FirstOrDefault(f =>
            f.MethodToken == frame.MethodToken && f.IlOffset == frame.IlOffset && f.ModulePath == frame.ModulePath) ?? frame;
    }
}
