using System.Globalization;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Values and names as a person reads them: an auto-property's backing field under the
/// property's name, an enum by its member name (flags as "A | B"), a Nullable&lt;T&gt; as
/// its value or null.
/// </summary>
internal static class ValueNames
{
    private const string BackingSuffix = ">k__BackingField";

    /// <summary>"&lt;Balance&gt;k__BackingField" is "Balance"; any other name stays.</summary>
    public static string Display(string fieldName) =>
        fieldName.StartsWith('<') && fieldName.EndsWith(BackingSuffix, StringComparison.Ordinal)
            ? fieldName[1..^BackingSuffix.Length] : fieldName;

    /// <summary>The enum value stored at address, by name; undefined values of a flags-like
    /// enum (every member a power of two or zero) as "A | B", others as the number.</summary>
    public static string? Enum(IMemoryReader memory, ClrType type, ulong address)
    {
        if (!type.IsEnum)
            return null;
        var e = type.AsEnum();
        string number = ValueFormatter.Primitive(memory, e.ElementType, address);
        if (!long.TryParse(number, NumberStyles.Integer, CultureInfo.InvariantCulture, out long value))
            return number;
        var members = new List<(string Name, long Value)>();
        foreach (var (name, raw) in e.EnumerateValues())
            if (name is not null && raw is not null)
                members.Add((name, Convert.ToInt64(raw, CultureInfo.InvariantCulture)));
        foreach (var (name, v) in members)
            if (v == value)
                return name;
        return Flags(members, value) ?? number;
    }

    private static string? Flags(List<(string Name, long Value)> members, long value)
    {
        if (value <= 0 || members.Any(m => m.Value < 0 || (m.Value & (m.Value - 1)) != 0))
            return null;
        var names = new List<string>();
        long left = value;
        foreach (var (name, v) in members.Where(m => m.Value != 0).OrderBy(m => m.Value))
            if ((left & v) == v)
            {
                names.Add(name);
                left &= ~v;
            }
        return left == 0 && names.Count > 0 ? string.Join(" | ", names) : null;
    }

    public static bool IsNullable(ClrType? type) =>
        type?.Name is { } name && name.StartsWith("System.Nullable<", StringComparison.Ordinal);

    /// <summary>For a Nullable&lt;T&gt; stored at location: whether it has a value, and the
    /// inner `value` field with its absolute location.</summary>
    public static (bool HasValue, ClrInstanceField? Value, ulong Location) Nullable(IMemoryReader memory, ClrType type, ulong location)
    {
        var hasValue = type.Fields.FirstOrDefault(f => f.Name == "hasValue");
        var value = type.Fields.FirstOrDefault(f => f.Name == "value");
        if (hasValue is null || value is null)
            return (false, null, 0);
        bool has = memory.Read<byte>(location + (ulong)hasValue.Offset) != 0;
        return (has, value, location + (ulong)value.Offset);
    }

    /// <summary>The text of a non-reference value of static type `type` at location:
    /// enums by name, nullables unwrapped, known structs by value; null for other structs.</summary>
    public static string? Text(IMemoryReader memory, ClrType? type, ulong location, out bool isNull)
    {
        isNull = false;
        if (type is null)
            return null;
        if (Enum(memory, type, location) is { } name)
            return name;
        if (IsNullable(type))
        {
            var (has, field, at) = Nullable(memory, type, location);
            if (field is null)
                return null;
            if (!has)
            {
                isNull = true;
                return "null";
            }
            var inner = Slot.Of(at, field.ElementType, field.Type);
            if (inner.Type is { IsEnum: true })
                return Enum(memory, inner.Type, at);
            if (ValueFormatter.PrimitiveSize(inner.Element, memory.PointerSize) > 0)
                return ValueFormatter.Primitive(memory, inner.Element, at);
            return inner.Type is null ? null : KnownValues.TryFormat(memory, inner.Type, at);
        }
        return null;
    }
}
