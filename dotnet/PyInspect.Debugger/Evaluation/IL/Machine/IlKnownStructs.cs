// DateTime, TimeSpan and Guid are shown by their value (Values/ValueText.KnownStruct reads a
// debuggee one's bytes). One the interpreter made holds its fields by name: they are laid
// out as the runtime lays them (sequential, no padding in these three) and shown the same way.
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public static class IlKnownStructs
{
    /// <summary>The variables view's text for a made DateTime, TimeSpan or Guid; null for any other struct.</summary>
    public static string? Text(string typeName, LocalObject made, IReadOnlyList<IlField> fields)
    {
        if (typeName is not ("System.DateTime" or "System.TimeSpan" or "System.Guid")) return null;
        var raw = new List<byte>();
        foreach (IlField field in fields)
        {
            object? value = made.Fields.GetValueOrDefault(field.Name);
            long number = value is null ? 0 : IlValue.AsLong(value);
            int size = field.FieldType is IlPrimitive primitive ? EvalValues.PrimitiveSize(primitive.ElementType) ?? 0 : 0;
            if (size == 0) return null;  // a layout these types do not have: show nothing rather than a guess
            raw.AddRange(BitConverter.GetBytes(number).Take(size));
        }
        while (raw.Count < 8) raw.Add(0);
        return Values.ValueText.KnownStruct(typeName, [.. raw]);
    }
}
