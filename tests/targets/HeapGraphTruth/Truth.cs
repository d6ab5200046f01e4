using System.Globalization;
using System.Runtime.CompilerServices;

namespace HeapGraphTruth;

/// <summary>Measures objects from the inside: addresses, offsets (interior pointer minus
/// the object's address), sizes from the MethodTable. Valid only inside a no-GC region.</summary>
public static unsafe class Truth
{
    public static ulong AddressOf(object obj) => (ulong)*(IntPtr*)Unsafe.AsPointer(ref obj);

    public static long OffsetOf<T>(object obj, ref T field) =>
        (long)((ulong)Unsafe.AsPointer(ref field) - AddressOf(obj));

    /// <summary>BaseSize plus ComponentSize times the element count, read from the MethodTable.</summary>
    public static long SizeOf(object obj)
    {
        byte* address = (byte*)AddressOf(obj);
        byte* methodTable = *(byte**)address;
        uint flags = *(uint*)methodTable;
        uint baseSize = *(uint*)(methodTable + 4);
        bool hasComponents = (flags & 0x80000000u) != 0;
        if (!hasComponents)
            return baseSize;
        uint componentSize = flags & 0xFFFF;
        uint count = *(uint*)(address + 8);
        return baseSize + (long)componentSize * count;
    }

    public static Dictionary<string, object> Field<T>(object owner, ref T field, string value) => new()
    {
        ["offset"] = OffsetOf(owner, ref field),
        ["size"] = Unsafe.SizeOf<T>(),
        ["value"] = value,
    };

    public static Dictionary<string, object> Object(object obj, string typeName, Dictionary<string, object> fields) => new()
    {
        ["address"] = "0x" + AddressOf(obj).ToString("X16"),
        ["typeName"] = typeName,
        ["size"] = SizeOf(obj),
        ["fields"] = fields,
    };

    public static string Ref(object obj, string typeName) => obj is null ? "null" : "{" + typeName + "}";

    public static string Num(IFormattable value) => value.ToString(null, CultureInfo.InvariantCulture);
}
