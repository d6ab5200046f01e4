using System.Globalization;
using System.Runtime.CompilerServices;

namespace MemoryTruth;

/// <summary>Measures objects from the inside: addresses, offsets (interior pointer minus
/// the object's address), sizes from the MethodTable. Valid only inside a no-GC region.
/// Formats values the way the memory tools show them.</summary>
public static unsafe class Truth
{
    public static ulong AddressOf(object obj) => (ulong)*(IntPtr*)Unsafe.AsPointer(ref obj);

    public static string Hex(object obj) => "0x" + AddressOf(obj).ToString("X16");

    public static long OffsetOf<T>(object obj, ref T field) =>
        (long)((ulong)Unsafe.AsPointer(ref field) - AddressOf(obj));

    /// <summary>BaseSize plus ComponentSize times the element count, read from the MethodTable.</summary>
    public static long SizeOf(object obj)
    {
        byte* address = (byte*)AddressOf(obj);
        byte* methodTable = *(byte**)address;
        uint flags = *(uint*)methodTable;
        uint baseSize = *(uint*)(methodTable + 4);
        if ((flags & 0x80000000u) == 0)
            return baseSize;
        return baseSize + (long)(flags & 0xFFFF) * *(uint*)(address + 8);
    }

    public static Dictionary<string, object> Field<T>(object owner, ref T field, string value) => new()
    {
        ["offset"] = OffsetOf(owner, ref field),
        ["size"] = Unsafe.SizeOf<T>(),
        ["value"] = value,
    };

    /// <summary>A value as the tools print it: numbers invariant, strings quoted, objects {Type}.</summary>
    public static string Format(object value) => value switch
    {
        null => "null",
        string s => "\"" + s + "\"",
        bool b => b ? "true" : "false",
        char c => "'" + c + "'",
        decimal m => m.ToString(CultureInfo.InvariantCulture),
        DateTime d => d.ToString("yyyy-MM-ddTHH:mm:ss.FFFFFFFK", CultureInfo.InvariantCulture),
        DateTimeOffset d => d.ToString("yyyy-MM-ddTHH:mm:ss.FFFFFFFzzz", CultureInfo.InvariantCulture),
        Guid g => g.ToString("D"),
        TimeSpan t => t.ToString("c", CultureInfo.InvariantCulture),
        Enum e => Convert.ToInt64(e, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture),
        IFormattable f when value.GetType().IsPrimitive => f.ToString(null, CultureInfo.InvariantCulture),
        Array a => "{" + a.GetType().GetElementType() + "[" + a.Length + "]}",
        _ => "{" + value.GetType() + "}",
    };

    public static string TypeOf(object value) => value is null ? "null" : value.GetType().ToString();

    public static string Num(IFormattable value) => value.ToString(null, CultureInfo.InvariantCulture);
}
