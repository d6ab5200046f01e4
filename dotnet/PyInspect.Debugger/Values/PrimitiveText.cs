// A value typed by a user ("42", "-1", "0x1F", "2.5", "true", "'c'") as the bytes of a
// primitive of a given CorElementType, with C#'s range checks.
using System.Globalization;
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Values;

public static class PrimitiveText
{
    private const NumberStyles Integer = NumberStyles.AllowLeadingSign | NumberStyles.AllowLeadingWhite | NumberStyles.AllowTrailingWhite;

    /// <summary>The bytes for `text`, or a FormatException saying what was expected.</summary>
    public static byte[] Parse(int elementType, string text)
    {
        string t = text.Trim();
        string typeName = TypeNames.PrimitiveAlias(elementType) ?? $"0x{elementType:X}";
        try
        {
            RefuseNarrowingSuffix(elementType, t, typeName);
            return elementType switch
            {
                CorElementType.Boolean => [bool.Parse(t) ? (byte)1 : (byte)0],
                CorElementType.Char => BitConverter.GetBytes(ParseChar(t)),
                CorElementType.I1 => [unchecked((byte)checked((sbyte)ParseInteger(t)))],
                CorElementType.U1 => [checked((byte)ParseInteger(t))],
                CorElementType.I2 => BitConverter.GetBytes(checked((short)ParseInteger(t))),
                CorElementType.U2 => BitConverter.GetBytes(checked((ushort)ParseInteger(t))),
                CorElementType.I4 => BitConverter.GetBytes(checked((int)ParseInteger(t))),
                CorElementType.U4 => BitConverter.GetBytes(checked((uint)ParseInteger(t))),
                CorElementType.I8 or CorElementType.I => BitConverter.GetBytes(checked((long)ParseInteger(t))),
                CorElementType.U8 or CorElementType.U => BitConverter.GetBytes(checked((ulong)ParseInteger(t))),
                CorElementType.R4 => BitConverter.GetBytes(float.Parse(TrimSuffix(t, "fF"), CultureInfo.InvariantCulture)),
                CorElementType.R8 => BitConverter.GetBytes(double.Parse(TrimSuffix(t, "dD"), CultureInfo.InvariantCulture)),
                _ => throw new FormatException($"cannot assign to a value of element type {typeName}"),
            };
        }
        catch (OverflowException) { throw new FormatException($"{t} is out of range for {typeName}"); }
        catch (FormatException error) when (!error.Message.StartsWith("cannot assign", StringComparison.Ordinal))
        {
            throw new FormatException($"'{t}' is not a valid {typeName}");
        }
    }

    /// <summary>An integer literal with a suffix has the suffix's type (`u` uint, or ulong when
    /// larger; `l` long; `ul` ulong), which C# converts implicitly only to wider types (a
    /// non-negative long constant to ulong too): `103u` is no byte (CS0266).</summary>
    private static void RefuseNarrowingSuffix(int elementType, string t, string typeName)
    {
        if (elementType is CorElementType.R4 or CorElementType.R8 or CorElementType.Boolean or CorElementType.Char) return;
        string suffix = new string([.. t.Reverse().TakeWhile(c => c is 'u' or 'U' or 'l' or 'L').Reverse()]).ToLowerInvariant();
        if (suffix.Length == 0) return;
        if (suffix == "u" && ParseInteger(t) > uint.MaxValue) suffix = "ul";
        bool converts = suffix switch
        {
            "u" => elementType is CorElementType.U4 or CorElementType.I8 or CorElementType.U8 or CorElementType.I or CorElementType.U,
            "l" => elementType is CorElementType.I8 or CorElementType.U8,
            _ => elementType is CorElementType.U8,
        };
        string literal = suffix switch { "u" => "uint", "l" => "long", _ => "ulong" };
        if (!converts) throw new FormatException($"cannot assign {t} to a {typeName}: a {literal} literal has no implicit conversion to {typeName}");
    }

    private static System.Numerics.BigInteger ParseInteger(string t)
    {
        string digits = TrimSuffix(t, "uUlL").Replace("_", "");
        bool negative = digits.StartsWith('-');
        string body = negative || digits.StartsWith('+') ? digits[1..] : digits;
        var value = body.StartsWith("0x", StringComparison.OrdinalIgnoreCase)
            ? System.Numerics.BigInteger.Parse("0" + body[2..], NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture)
            : System.Numerics.BigInteger.Parse(body, Integer, CultureInfo.InvariantCulture);
        return negative ? -value : value;
    }

    private static char ParseChar(string t)
    {
        if (t.Length == 3 && t[0] == '\'' && t[2] == '\'') return t[1];
        if (t.Length == 1) return t[0];
        throw new FormatException("a char is written 'c'");
    }

    private static string TrimSuffix(string t, string suffixes) => t.Length > 1 ? t.TrimEnd(suffixes.ToCharArray()) : t;
}
