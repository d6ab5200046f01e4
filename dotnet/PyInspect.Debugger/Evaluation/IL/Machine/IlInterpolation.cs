// String interpolation ($"#{Id}:{Status}") as the compiler lowers it: a
// DefaultInterpolatedStringHandler whose buffer comes from ArrayPool (thread-local state
// we will not touch). Computed here instead: literals, strings, bools, chars, non-negative
// integers and enum members format the same in every culture; what would format by the
// debuggee's culture (negative numbers, floats, decimals, dates) or by a ToString of object
// is refused, unless that ToString is an override the interpreter can run.
using System.Globalization;
using System.Text;
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

/// <summary>The text an interpolation handler has built so far (held in the handler's slot).</summary>
public sealed class InterpolatedText
{
    public StringBuilder Text { get; } = new();
}

public static class IlInterpolation
{
    public const string HandlerType = "System.Runtime.CompilerServices.DefaultInterpolatedStringHandler";

    public static object? Call(IlMachine machine, IlMethod method, object?[] args)
    {
        if (args.Length == 0 || args[0] is not IlRef handler) throw new IlRefusal($"calls {method.DisplayName} without its handler");
        if (method.Name == ".ctor")
        {
            if (method.Parameters.Count != 2) throw new IlRefusal("interpolates with a format provider");
            handler.Set(new InterpolatedText());
            return null;
        }
        if (handler.Get() is not InterpolatedText text) throw new IlRefusal("uses an interpolation handler it did not make");
        switch (method.Name)
        {
            case "AppendLiteral" when args.Length == 2:
                text.Text.Append((string?)args[1]);
                return null;
            case "AppendFormatted" when args.Length == 2:
                text.Text.Append(Format(machine, args[1], method.Parameters[0]));
                return null;
            case "ToStringAndClear" or "ToString":
                string built = text.Text.ToString();
                if (method.Name == "ToStringAndClear") text.Text.Clear();
                return built;
            default:
                throw new IlRefusal($"interpolates with an alignment or a format string ({method.DisplayName})");
        }
    }

    private static string Format(IlMachine machine, object? value, IlType type)
    {
        switch (type)
        {
            case IlPrimitive { ElementType: CorElementType.String }:
                return (string?)value ?? "";
            case IlPrimitive { ElementType: CorElementType.Boolean }:
                return IlValue.AsLong(value) != 0 ? "True" : "False";
            case IlPrimitive { ElementType: CorElementType.Char }:
                return ((char)IlValue.AsLong(value)).ToString();
            case IlPrimitive { ElementType: CorElementType.R4 or CorElementType.R8 }:
                throw new IlRefusal("formats a floating-point number by the debuggee's culture");
            case IlPrimitive { IsValueType: true } integer:
                object number = IlValue.ToClr(value, integer)!;
                if (System.Convert.ToDecimal(number, CultureInfo.InvariantCulture) < 0) throw new IlRefusal("formats a negative number by the debuggee's culture");
                return System.Convert.ToString(number, CultureInfo.InvariantCulture)!;
            case IlNamed { Kind: IlTypeKind.Enum } enumType:
                long member = IlValue.AsLong(value);
                var names = ModuleMetadata.Open(enumType.ModulePath).GetEnumMembers(enumType.Token).Where(m => m.Value == member).ToList();
                return names.Count == 1 ? names[0].Name : throw new IlRefusal($"formats a {enumType.Name} value that is not exactly one member");
            case IlNamed { Name: "System.Nullable`1" } nullable:
                throw new IlRefusal($"formats a {nullable.Key}");
            default:
                if (type.IsValueType) throw new IlRefusal($"formats a {type.Key} by the debuggee's culture");
                return value switch
                {
                    null => "",
                    string s => s,
                    _ => machine.FormatByToString(value),
                };
        }
    }
}
