using System.Globalization;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Real values of the structs people read as values (decimal, DateTime, DateTimeOffset,
/// Guid, TimeSpan), rebuilt from their fields in the target's memory. Fields are found by
/// name on the target's own type, so a layout change shows as "no value", not a wrong one.
/// </summary>
internal static class KnownValues
{
    public const string DateTimeFormat = "yyyy-MM-ddTHH:mm:ss.FFFFFFFK";
    public const string DateTimeOffsetFormat = "yyyy-MM-ddTHH:mm:ss.FFFFFFFzzz";

    public static bool IsKnown(string? typeName) => typeName is "System.Decimal" or "System.DateTime"
        or "System.DateTimeOffset" or "System.Guid" or "System.TimeSpan";

    /// <summary>The value of a struct of type stored at address (its first field), or null.</summary>
    public static object? Read(IMemoryReader memory, ClrType type, ulong address)
    {
        try
        {
            return type.Name switch
            {
                "System.Decimal" => ReadDecimal(memory, type, address),
                "System.DateTime" => ReadDateTime(memory, type, address),
                "System.DateTimeOffset" => ReadDateTimeOffset(memory, type, address),
                "System.Guid" => ReadGuid(memory, address),
                "System.TimeSpan" => new TimeSpan(memory.Read<long>(address + Offset(type, "_ticks"))),
                _ => null,
            };
        }
        catch (Exception exc) when (exc is ArgumentException or InvalidOperationException or OverflowException)
        {
            return null;
        }
    }

    public static string Format(object value) => value switch
    {
        decimal m => m.ToString(CultureInfo.InvariantCulture),
        DateTime d => d.ToString(DateTimeFormat, CultureInfo.InvariantCulture),
        DateTimeOffset d => d.ToString(DateTimeOffsetFormat, CultureInfo.InvariantCulture),
        Guid g => g.ToString("D"),
        TimeSpan t => t.ToString("c", CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };

    public static string? TryFormat(IMemoryReader memory, ClrType? type, ulong address) =>
        type is not null && IsKnown(type.Name) && Read(memory, type, address) is { } value ? Format(value) : null;

    private static ulong Offset(ClrType type, string field) =>
        (ulong)(type.GetFieldByName(field) ?? throw new InvalidOperationException($"{type.Name} has no field {field}")).Offset;

    private static decimal ReadDecimal(IMemoryReader memory, ClrType type, ulong address)
    {
        int flags = memory.Read<int>(address + Offset(type, "_flags"));
        uint hi = memory.Read<uint>(address + Offset(type, "_hi32"));
        ulong lo = memory.Read<ulong>(address + Offset(type, "_lo64"));
        return new decimal(new[] { (int)lo, (int)(lo >> 32), (int)hi, flags });
    }

    private static DateTime ReadDateTime(IMemoryReader memory, ClrType type, ulong address)
    {
        ulong data = memory.Read<ulong>(address + Offset(type, "_dateData"));
        long ticks = (long)(data & 0x3FFFFFFFFFFFFFFFUL);
        var kind = (data >> 62) switch { 0 => DateTimeKind.Unspecified, 1 => DateTimeKind.Utc, _ => DateTimeKind.Local };
        return new DateTime(ticks, kind);
    }

    private static DateTimeOffset ReadDateTimeOffset(IMemoryReader memory, ClrType type, ulong address)
    {
        var dateField = type.GetFieldByName("_dateTime") ?? throw new InvalidOperationException("no _dateTime");
        var offsetField = type.GetFieldByName("_offsetMinutes") ?? throw new InvalidOperationException("no _offsetMinutes");
        ulong data = memory.Read<ulong>(address + (ulong)dateField.Offset);
        long utcTicks = (long)(data & 0x3FFFFFFFFFFFFFFFUL);
        int minutes = offsetField.Size == 2
            ? memory.Read<short>(address + (ulong)offsetField.Offset)
            : memory.Read<int>(address + (ulong)offsetField.Offset);
        var offset = TimeSpan.FromMinutes(minutes);
        return new DateTimeOffset(utcTicks + offset.Ticks, offset);
    }

    private static Guid ReadGuid(IMemoryReader memory, ulong address)
    {
        Span<byte> bytes = stackalloc byte[16];
        if (memory.Read(address, bytes) != 16)
            throw new InvalidOperationException("guid unreadable");
        return new Guid(bytes);
    }

    /// <summary>True for the values object_summarize calls default (DateTime/DateTimeOffset at 0001-01-01).</summary>
    public static bool IsDefaultDate(object value) => value is DateTime { Ticks: 0 } or DateTimeOffset { UtcTicks: 0, Offset.Ticks: 0 };
}
