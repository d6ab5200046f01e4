// setVariable: a primitive (parsed with C#'s range checks), a string (made in the debuggee
// by func-eval) or null written into a local, an argument, a field or an array element of
// the stopped process. Making a string runs code, which leaves values read before it
// stale, so the target is located afresh after that. In a frame (a local, an argument, or
// setExpression; for an object's member, the top frame of the thread that stopped) any
// other value is what VS Code's "Set Value" sends, a C# expression: evaluated there and
// assigned by C#'s conversions, as netcoredbg and vsdbg do.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Expressions;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Protocol;
using PyInspect.Debugger.Values;

namespace PyInspect.Debugger.Session;

public sealed class VariableWriter(Debuggee debuggee, FrameEvaluator evaluator)
{
    /// <summary>setVariable: the variable `name` among a reference's children, read afresh
    /// after the write. A value that is not a literal is evaluated in the frame the variable
    /// belongs to, or, for an object's member, in the top frame of the thread that stopped.</summary>
    public VariableView SetVariable(object source, string name, string text, bool hex) =>
        AssignOrEvaluate(source is FrameScope scope ? scope.FrameId : null, name, text, hex, () => Locate(source, name));

    /// <summary>setExpression: an assignable path (a local, an argument, a field path, an
    /// array element) in a frame, given the same values as setVariable.</summary>
    public VariableView SetExpression(int frameId, string expression, string text, bool hex)
    {
        debuggee.Frame(frameId);  // rejects an unknown id now
        return AssignOrEvaluate(frameId, expression, text, hex, () => FramePath.Evaluate(expression, debuggee.Frame(frameId)));
    }

    /// <summary>A literal is written as it is; anything else is a C# expression, evaluated and
    /// written by C#'s implicit conversions (a char from another char, a long from an int sum,
    /// an enum member), refused by name where C# would not convert it.</summary>
    private VariableView AssignOrEvaluate(int? frameId, string name, string text, bool hex, Func<ICorDebugValue> locate)
    {
        try { return Assign(name, text, hex, locate); }
        catch (DapException literal)
        {
            FrameInfo frame = frameId is { } id ? debuggee.Frame(id)
                : debuggee.TopFrame(debuggee.StopThreadId) ?? throw new DapException(literal.Message);
            using (EvalContext context = evaluator.NewEvalContext(frame))
            {
                try { ValueWriter.Write(context, locate, Interpreter.Evaluate(text, context), compound: false, name); }
                catch (Exception error) when (error is EvalException or ValuePathException)
                {
                    throw new DapException($"cannot set '{name}' to '{text}': {literal.Message}; as a C# expression: {error.Message}");
                }
            }
            return VariableReader.Describe(name, name, locate(), hex);
        }
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
            var made = (ICorDebugReferenceValue)debuggee.Calls.NewString(debuggee.StopThreadId, System.Text.RegularExpressions.Regex.Unescape(text[1..^1]));
            made.GetValue(out address);
        }
        var target = (ICorDebugReferenceValue)locate();
        EngineException.ThrowIfFailed(target.SetValue(address), "ICorDebugReferenceValue.SetValue");
    }

    /// <summary>The named variable in a frame's locals, an object's fields or an array's elements, read now.</summary>
    private ICorDebugValue Locate(object source, string name)
    {
        ICorDebugValue? found = source switch
        {
            FrameScope scope => FrameVariables.Raw(debuggee.Frame(scope.FrameId)).FirstOrDefault(v => v.Name == name)?.Value,
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
}
