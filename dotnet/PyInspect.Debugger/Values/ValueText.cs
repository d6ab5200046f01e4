// Values formatted as netcoredbg shows them: "\"text\"", 42, 3.5, true, 'c', null,
// {Namespace.Type}, {int[3]}; decimals, DateTime and Guid by their real value.
using System.Globalization;
using System.Text;
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Values;

public static class ValueText
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>The raw bytes of a primitive or struct value (ICorDebugGenericValue).</summary>
    public static unsafe byte[]? RawBytes(ICorDebugValue value)
    {
        if (value is not ICorDebugGenericValue generic || value.GetSize(out uint size) < 0 || size > 4096) return null;
        var bytes = new byte[Math.Max(size, 8)];
        fixed (byte* p = bytes)
            if (generic.GetValue((nint)p) < 0) return null;
        return bytes;
    }

    public static string Primitive(int elementType, byte[] raw, bool hex) => elementType switch
    {
        CorElementType.Boolean => raw[0] != 0 ? "true" : "false",
        CorElementType.Char => CharLiteral((char)BitConverter.ToUInt16(raw)),
        CorElementType.I1 => Integer((sbyte)raw[0], hex), CorElementType.U1 => Integer(raw[0], hex),
        CorElementType.I2 => Integer(BitConverter.ToInt16(raw), hex), CorElementType.U2 => Integer(BitConverter.ToUInt16(raw), hex),
        CorElementType.I4 => Integer(BitConverter.ToInt32(raw), hex), CorElementType.U4 => Integer(BitConverter.ToUInt32(raw), hex),
        CorElementType.I8 or CorElementType.I => Integer(BitConverter.ToInt64(raw), hex),
        CorElementType.U8 or CorElementType.U => Unsigned(BitConverter.ToUInt64(raw), hex),
        CorElementType.R4 => BitConverter.ToSingle(raw).ToString(Invariant),
        CorElementType.R8 => BitConverter.ToDouble(raw).ToString(Invariant),
        _ => "?",
    };

    private static string Integer(long value, bool hex) => hex ? $"0x{value:X}" : value.ToString(Invariant);
    private static string Unsigned(ulong value, bool hex) => hex ? $"0x{value:X}" : value.ToString(Invariant);

    public static string CharLiteral(char c) => "'" + Escape(c.ToString(), '\'') + "'";

    public static string StringLiteral(string text) => "\"" + Escape(text, '"') + "\"";

    private static string Escape(string text, char quote)
    {
        var sb = new StringBuilder(text.Length);
        foreach (char c in text)
        {
            switch (c)
            {
                case '\\': sb.Append(@"\\"); break;
                case '\n': sb.Append(@"\n"); break;
                case '\r': sb.Append(@"\r"); break;
                case '\t': sb.Append(@"\t"); break;
                case '\0': sb.Append(@"\0"); break;
                default:
                    if (c == quote) sb.Append('\\');
                    sb.Append(c);
                    break;
            }
        }
        return sb.ToString();
    }

    public static unsafe string ReadString(ICorDebugStringValue value)
    {
        if (value.GetLength(out uint length) < 0) return "";
        var buffer = new char[length + 1];
        fixed (char* p = buffer)
            if (value.GetString(length + 1, out uint written, p) < 0) return "";
        return new string(buffer, 0, (int)Math.Min(length, (uint)buffer.Length));
    }

    /// <summary>Well-known structs shown by value; null for any other struct.</summary>
    public static string? KnownStruct(string typeName, byte[] raw) => typeName switch
    {
        "decimal" or "System.Decimal" => ReadDecimal(raw).ToString(Invariant),
        "System.DateTime" => "{" + ReadDateTime(raw).ToString("yyyy-MM-ddTHH:mm:ss.fffffff", Invariant) + "}",
        "System.Guid" => "{" + new Guid(raw.AsSpan(0, 16)).ToString() + "}",
        "System.TimeSpan" => "{" + TimeSpan.FromTicks(BitConverter.ToInt64(raw)).ToString("c", Invariant) + "}",
        _ => null,
    };

    /// <summary>decimal's layout: int _flags, uint _hi32, ulong _lo64.</summary>
    private static decimal ReadDecimal(byte[] raw)
    {
        int flags = BitConverter.ToInt32(raw, 0);
        int hi = BitConverter.ToInt32(raw, 4);
        ulong lo64 = BitConverter.ToUInt64(raw, 8);
        return new decimal([(int)lo64, (int)(lo64 >> 32), hi, flags]);
    }

    /// <summary>DateTime's layout: ulong _dateData, ticks in the low 62 bits.</summary>
    private static DateTime ReadDateTime(byte[] raw) =>
        new((long)(BitConverter.ToUInt64(raw) & 0x3FFFFFFFFFFFFFFFUL));
}
