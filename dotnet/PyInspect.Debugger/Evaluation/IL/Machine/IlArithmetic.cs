// The IL stack's arithmetic, comparisons and conversions over int, long (native ints too)
// and double, with the runtime's checked-overflow and divide-by-zero exceptions.
using System.Reflection.Emit;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public static class IlArithmetic
{
    public static object Binary(string op, object? a, object? b)
    {
        if (a is double || b is double) return Float(op, IlValue.AsDouble(a), IlValue.AsDouble(b));
        if (a is int x && b is int y) return Int32(op, x, y);
        if (a is int or long && b is int or long)
        {
            // Shifts take an int amount; the result has the type of the shifted value.
            if (op is "shl" or "shr" or "shr.un" && a is int small) return Int32(op, small, (int)IlValue.AsLong(b));
            return Int64(op, IlValue.AsLong(a), IlValue.AsLong(b));
        }
        throw new IlRefusal($"does arithmetic ({op}) on {IlValue.Describe(a)} and {IlValue.Describe(b)}");
    }

    private static object Int32(string op, int a, int b)
    {
        try
        {
            return op switch
            {
                "add" => unchecked(a + b), "sub" => unchecked(a - b), "mul" => unchecked(a * b),
                "div" => b == 0 ? throw IlErrors.DivideByZero() : a == int.MinValue && b == -1 ? throw IlErrors.Overflow() : a / b,
                "div.un" => b == 0 ? throw IlErrors.DivideByZero() : (int)((uint)a / (uint)b),
                "rem" => b == 0 ? throw IlErrors.DivideByZero() : a == int.MinValue && b == -1 ? throw IlErrors.Overflow() : a % b,
                "rem.un" => b == 0 ? throw IlErrors.DivideByZero() : (int)((uint)a % (uint)b),
                "and" => a & b, "or" => a | b, "xor" => a ^ b,
                "shl" => a << b, "shr" => a >> b, "shr.un" => (int)((uint)a >> b),
                "add.ovf" => checked(a + b), "add.ovf.un" => (int)checked((uint)a + (uint)b),
                "sub.ovf" => checked(a - b), "sub.ovf.un" => (int)checked((uint)a - (uint)b),
                "mul.ovf" => checked(a * b), "mul.ovf.un" => (int)checked((uint)a * (uint)b),
                _ => throw new IlRefusal($"uses {op} on int32"),
            };
        }
        catch (OverflowException) { throw IlErrors.Overflow(); }
    }

    private static object Int64(string op, long a, long b)
    {
        try
        {
            return op switch
            {
                "add" => unchecked(a + b), "sub" => unchecked(a - b), "mul" => unchecked(a * b),
                "div" => b == 0 ? throw IlErrors.DivideByZero() : a == long.MinValue && b == -1 ? throw IlErrors.Overflow() : a / b,
                "div.un" => b == 0 ? throw IlErrors.DivideByZero() : (long)((ulong)a / (ulong)b),
                "rem" => b == 0 ? throw IlErrors.DivideByZero() : a == long.MinValue && b == -1 ? throw IlErrors.Overflow() : a % b,
                "rem.un" => b == 0 ? throw IlErrors.DivideByZero() : (long)((ulong)a % (ulong)b),
                "and" => a & b, "or" => a | b, "xor" => a ^ b,
                "shl" => a << (int)b, "shr" => a >> (int)b, "shr.un" => (long)((ulong)a >> (int)b),
                "add.ovf" => checked(a + b), "add.ovf.un" => (long)checked((ulong)a + (ulong)b),
                "sub.ovf" => checked(a - b), "sub.ovf.un" => (long)checked((ulong)a - (ulong)b),
                "mul.ovf" => checked(a * b), "mul.ovf.un" => (long)checked((ulong)a * (ulong)b),
                _ => throw new IlRefusal($"uses {op} on int64"),
            };
        }
        catch (OverflowException) { throw IlErrors.Overflow(); }
    }

    private static object Float(string op, double a, double b) => op switch
    {
        "add" => a + b, "sub" => a - b, "mul" => a * b, "div" => a / b, "rem" => a % b,
        _ => throw new IlRefusal($"uses {op} on floating point"),
    };

    // Each arm boxed as its own type: a switch expression of int, long and double arms would be a double.
    public static object Unary(string op, object? a) => (op, a) switch
    {
        ("neg", int i) => (object)unchecked(-i), ("neg", long l) => (object)unchecked(-l), ("neg", double d) => (object)(-d),
        ("not", int i) => (object)~i, ("not", long l) => (object)~l,
        _ => throw new IlRefusal($"uses {op} on {IlValue.Describe(a)}"),
    };

    /// <summary>-1, 0, 1, or null when unordered (NaN); `unsigned` compares integers as unsigned.</summary>
    public static int? Compare(object? a, object? b, bool unsigned)
    {
        if (a is double || b is double)
        {
            double x = IlValue.AsDouble(a), y = IlValue.AsDouble(b);
            return double.IsNaN(x) || double.IsNaN(y) ? null : x.CompareTo(y);
        }
        if (a is int i && b is int j) return unsigned ? ((uint)i).CompareTo((uint)j) : i.CompareTo(j);
        if (a is int or long && b is int or long)
        {
            long x = IlValue.AsLong(a), y = IlValue.AsLong(b);
            return unsigned ? ((ulong)x).CompareTo((ulong)y) : x.CompareTo(y);
        }
        // References: only null against non-null orders them (cgt.un is `x != null`).
        if (a is null && b is null) return 0;
        if (b is null) return 1;
        if (a is null) return -1;
        throw new IlRefusal($"compares {IlValue.Describe(a)} with {IlValue.Describe(b)}");
    }

    /// <summary>ceq: numbers by value, references by identity (debuggee objects by address).</summary>
    public static bool Equal(object? a, object? b)
    {
        if (a is int or long or double && b is int or long or double) return Compare(a, b, false) == 0;
        if (a is null || b is null) return a is null && b is null;
        if (a is DebuggeeObject x && b is DebuggeeObject y) return x.Address == y.Address;
        if (a is string s && b is string t)
            return ReferenceEquals(s, t) ? true : throw new IlRefusal("compares two strings by reference");
        if (a is TypeValue ta && b is TypeValue tb) return ta.Type.SameAs(tb.Type);  // one Type object per type
        if (a is TypeHandleValue ha && b is TypeHandleValue hb) return ha.Type.SameAs(hb.Type);
        if (a is IlRef || b is IlRef) throw new IlRefusal("compares pointers");
        return ReferenceEquals(a, b);
    }

    public static object Convert(OpCode op, object? value)
    {
        string name = op.Name!;
        bool overflow = name.StartsWith("conv.ovf", StringComparison.Ordinal);
        bool fromUnsigned = name.EndsWith(".un", StringComparison.Ordinal);
        string target = name.Replace("conv.ovf.", "", StringComparison.Ordinal).Replace("conv.", "", StringComparison.Ordinal).Replace(".un", "", StringComparison.Ordinal);
        if (value is not (int or long or double)) throw new IlRefusal($"converts {IlValue.Describe(value)} ({name})");
        if (target == "r" || target == "r8" && fromUnsigned)
            return value is double d0 ? d0 : value is int i0 ? (double)(uint)i0 : (double)(ulong)IlValue.AsLong(value);
        if (target is "r4") return (double)(float)IlValue.AsDouble(value);
        if (target is "r8") return IlValue.AsDouble(value);
        try
        {
            if (value is double d)
                return overflow ? CheckedFromDouble(target, d) : UncheckedFromDouble(target, d);
            long v = value is int i ? (fromUnsigned || (!overflow && target is "u8" or "u") ? (long)(uint)i : i) : (long)value;
            bool wide = value is long;
            return overflow ? CheckedFromLong(target, v, fromUnsigned && wide) : UncheckedFromLong(target, v);
        }
        catch (OverflowException) { throw IlErrors.Overflow(); }
    }

    private static object UncheckedFromLong(string target, long v) => unchecked(target switch
    {
        "i1" => (int)(sbyte)v, "u1" => (int)(byte)v, "i2" => (int)(short)v, "u2" => (int)(ushort)v,
        "i4" => (int)v, "u4" => (int)(uint)v, "i8" or "u8" or "i" or "u" => (object)v,
        _ => throw new IlRefusal($"converts to {target}"),
    });

    private static object CheckedFromLong(string target, long v, bool unsignedSource)
    {
        if (unsignedSource && v < 0 && target is not ("u8" or "u")) throw IlErrors.Overflow();
        return checked(target switch
        {
            "i1" => (int)(sbyte)v, "u1" => (int)(byte)v, "i2" => (int)(short)v, "u2" => (int)(ushort)v,
            "i4" => (int)v, "u4" => (int)(uint)v, "i8" or "i" => unsignedSource && v < 0 ? throw IlErrors.Overflow() : (object)v,
            "u8" or "u" => unsignedSource ? v : (object)(long)(ulong)v,
            _ => throw new IlRefusal($"converts to {target}"),
        });
    }

    private static object UncheckedFromDouble(string target, double d) => unchecked(target switch
    {
        "i1" => (int)(sbyte)d, "u1" => (int)(byte)d, "i2" => (int)(short)d, "u2" => (int)(ushort)d,
        "i4" => (int)d, "u4" => (int)(uint)d, "i8" or "i" => (long)d, "u8" or "u" => (object)(long)(ulong)d,
        _ => throw new IlRefusal($"converts to {target}"),
    });

    private static object CheckedFromDouble(string target, double d) => checked(target switch
    {
        "i1" => (int)(sbyte)d, "u1" => (int)(byte)d, "i2" => (int)(short)d, "u2" => (int)(ushort)d,
        "i4" => (int)d, "u4" => (int)(uint)d, "i8" or "i" => (long)d, "u8" or "u" => (object)(long)(ulong)d,
        _ => throw new IlRefusal($"converts to {target}"),
    });
}
