using System.Globalization;
using System.Runtime.InteropServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Min, max, average and sum over every element read, with LINQ's semantics: Min is NaN
/// when any element is NaN, Max ignores NaN unless all are NaN, infinities propagate
/// through the sum (+inf and -inf give NaN). Integer sums are exact (Int128) where LINQ
/// would throw on overflow; the average of integers is (double)sum / count as in LINQ;
/// float sums and averages accumulate in double and are shown as float, as LINQ does.
/// </summary>
internal sealed class NumericStats
{
    private enum Kind { Signed, Unsigned, Single, Double, Decimal }

    private readonly Kind _kind;
    private long _count;
    private Int128 _integerSum;
    private long _signedMin = long.MaxValue, _signedMax = long.MinValue;
    private ulong _unsignedMin = ulong.MaxValue, _unsignedMax;
    private double _floatSum, _floatMin, _floatMax;
    private bool _floatMinIsNaN;
    private bool _floatMaxSeen;
    private decimal _decimalSum, _decimalMin = decimal.MaxValue, _decimalMax = decimal.MinValue;

    private NumericStats(Kind kind)
    {
        _kind = kind;
    }

    /// <summary>Statistics for a static element type, or null when it is not numeric.</summary>
    public static NumericStats? For(string elementType) => elementType switch
    {
        "System.SByte" or "System.Int16" or "System.Int32" or "System.Int64" => new(Kind.Signed),
        "System.Byte" or "System.UInt16" or "System.UInt32" or "System.UInt64" => new(Kind.Unsigned),
        "System.Single" => new(Kind.Single),
        "System.Double" => new(Kind.Double),
        "System.Decimal" => new(Kind.Decimal),
        _ => null,
    };

    public void Add(SlotReader reader, Slot slot)
    {
        var memory = reader.Memory;
        ulong at = slot.Location;
        switch (_kind)
        {
            case Kind.Signed:
                AddSigned(slot.Element switch
                {
                    Microsoft.Diagnostics.Runtime.ClrElementType.Int8 => memory.Read<sbyte>(at),
                    Microsoft.Diagnostics.Runtime.ClrElementType.Int16 => memory.Read<short>(at),
                    Microsoft.Diagnostics.Runtime.ClrElementType.Int32 => memory.Read<int>(at),
                    _ => memory.Read<long>(at),
                });
                break;
            case Kind.Unsigned:
                AddUnsigned(slot.Element switch
                {
                    Microsoft.Diagnostics.Runtime.ClrElementType.UInt8 => memory.Read<byte>(at),
                    Microsoft.Diagnostics.Runtime.ClrElementType.UInt16 => memory.Read<ushort>(at),
                    Microsoft.Diagnostics.Runtime.ClrElementType.UInt32 => memory.Read<uint>(at),
                    _ => memory.Read<ulong>(at),
                });
                break;
            case Kind.Single:
                AddFloat(memory.Read<float>(at));
                break;
            case Kind.Double:
                AddFloat(memory.Read<double>(at));
                break;
            default:
                if (KnownValues.Read(memory.Reader, slot.Type!, at) is decimal value)
                    AddDecimal(value);
                break;
        }
    }

    /// <summary>Elements of a primitive type stored back to back, already read: the same
    /// statistics as one <see cref="Add"/> per element, without a memory read each.
    /// False (nothing counted) when the element type has no block form here.</summary>
    public bool AddBlock(ReadOnlySpan<byte> bytes, ClrElementType element)
    {
        switch ((_kind, element))
        {
            case (Kind.Signed, ClrElementType.Int8): foreach (var v in MemoryMarshal.Cast<byte, sbyte>(bytes)) AddSigned(v); return true;
            case (Kind.Signed, ClrElementType.Int16): foreach (var v in MemoryMarshal.Cast<byte, short>(bytes)) AddSigned(v); return true;
            case (Kind.Signed, ClrElementType.Int32): foreach (var v in MemoryMarshal.Cast<byte, int>(bytes)) AddSigned(v); return true;
            case (Kind.Signed, ClrElementType.Int64): foreach (var v in MemoryMarshal.Cast<byte, long>(bytes)) AddSigned(v); return true;
            case (Kind.Unsigned, ClrElementType.UInt8): foreach (var v in bytes) AddUnsigned(v); return true;
            case (Kind.Unsigned, ClrElementType.UInt16): foreach (var v in MemoryMarshal.Cast<byte, ushort>(bytes)) AddUnsigned(v); return true;
            case (Kind.Unsigned, ClrElementType.UInt32): foreach (var v in MemoryMarshal.Cast<byte, uint>(bytes)) AddUnsigned(v); return true;
            case (Kind.Unsigned, ClrElementType.UInt64): foreach (var v in MemoryMarshal.Cast<byte, ulong>(bytes)) AddUnsigned(v); return true;
            case (Kind.Single, ClrElementType.Float): foreach (var v in MemoryMarshal.Cast<byte, float>(bytes)) AddFloat(v); return true;
            case (Kind.Double, ClrElementType.Double): foreach (var v in MemoryMarshal.Cast<byte, double>(bytes)) AddFloat(v); return true;
            default: return false;
        }
    }

    private void AddSigned(long value)
    {
        _count++;
        _integerSum += value;
        if (value < _signedMin) _signedMin = value;
        if (value > _signedMax) _signedMax = value;
    }

    private void AddUnsigned(ulong value)
    {
        _count++;
        _integerSum += value;
        if (value < _unsignedMin) _unsignedMin = value;
        if (value > _unsignedMax) _unsignedMax = value;
    }

    private void AddFloat(double value)
    {
        if (_count++ == 0)
            _floatMin = value;
        _floatSum += value;
        if (double.IsNaN(value))
            _floatMinIsNaN = true;
        else if (!_floatMinIsNaN && value < _floatMin)
            _floatMin = value;
        if (!double.IsNaN(value) && (!_floatMaxSeen || value > _floatMax))
        {
            _floatMax = value;
            _floatMaxSeen = true;
        }
    }

    private void AddDecimal(decimal value)
    {
        _count++;
        _decimalSum += value;
        if (value < _decimalMin) _decimalMin = value;
        if (value > _decimalMax) _decimalMax = value;
    }

    public NumericStatsRecord? ToRecord()
    {
        if (_count == 0)
            return null;
        var c = CultureInfo.InvariantCulture;
        return _kind switch
        {
            Kind.Signed => Make(_signedMin.ToString(c), _signedMax.ToString(c), ((double)_integerSum / _count).ToString(c), _integerSum.ToString(c)),
            Kind.Unsigned => Make(_unsignedMin.ToString(c), _unsignedMax.ToString(c), ((double)_integerSum / _count).ToString(c), _integerSum.ToString(c)),
            Kind.Single => Make(((float)FloatMin).ToString(c), ((float)FloatMax).ToString(c), ((float)(_floatSum / _count)).ToString(c), ((float)_floatSum).ToString(c)),
            Kind.Double => Make(FloatMin.ToString(c), FloatMax.ToString(c), (_floatSum / _count).ToString(c), _floatSum.ToString(c)),
            _ => Make(_decimalMin.ToString(c), _decimalMax.ToString(c), (_decimalSum / _count).ToString(c), _decimalSum.ToString(c)),
        };
    }

    private double FloatMin => _floatMinIsNaN ? double.NaN : _floatMin;

    private double FloatMax => _floatMaxSeen ? _floatMax : double.NaN;

    private static NumericStatsRecord Make(string min, string max, string average, string sum) =>
        new() { Min = min, Max = max, Average = average, Sum = sum };
}
