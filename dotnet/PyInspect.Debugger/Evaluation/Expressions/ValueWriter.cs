// Writing a value the evaluator computed into debuggee storage (a local, an argument, a
// field, an array element): primitives, enums, decimals and nullables as their bytes, a
// struct from another of its type, strings made in the debuggee, null, and objects the
// storage's declared type can hold. Plain `=` takes only what C# converts implicitly;
// compound assignments convert back explicitly, as C# does.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Frames;
using PyInspect.Debugger.Values;
using PyInspect.Debugger.Evaluation.Calls;
using PyInspect.Debugger.Evaluation.Core;

namespace PyInspect.Debugger.Evaluation.Expressions;

public static class ValueWriter
{
    public static void Write(EvalContext context, Func<ICorDebugValue> locate, object? value, bool compound, string text)
    {
        ICorDebugValue storage = locate();
        storage.GetType(out int elementType);
        object? local = EvalValues.Local(value);
        if (PrimitiveOf(elementType) is { } primitive)
        {
            WriteBytes(storage, Arguments.Bytes(Fit(local, primitive, compound, text)), text);
            return;
        }
        if (storage is ICorDebugReferenceValue reference)
        {
            WriteReference(context, reference, locate, local, text);
            return;
        }
        if (elementType == CorElementType.ValueType)
        {
            WriteValueType(context, storage, locate, local, compound, text);
            return;
        }
        throw new EvalException($"cannot assign to '{text}': its type cannot be written");
    }

    private static Type? PrimitiveOf(int elementType) => elementType switch
    {
        CorElementType.Boolean => typeof(bool), CorElementType.Char => typeof(char),
        CorElementType.I1 => typeof(sbyte), CorElementType.U1 => typeof(byte),
        CorElementType.I2 => typeof(short), CorElementType.U2 => typeof(ushort),
        CorElementType.I4 => typeof(int), CorElementType.U4 => typeof(uint),
        CorElementType.I8 => typeof(long), CorElementType.U8 => typeof(ulong),
        CorElementType.R4 => typeof(float), CorElementType.R8 => typeof(double),
        CorElementType.I => typeof(nint), CorElementType.U => typeof(nuint),
        _ => null,
    };

    /// <summary>The value as the storage's primitive type, or why it does not fit.</summary>
    private static object Fit(object? value, Type target, bool compound, string text)
    {
        string name = Display.LocalTypeName(Activator.CreateInstance(target));
        if (value is null or RemoteValue or SequenceValue or PairValue or TypeRef or TypeOfValue or IComputedValue || (value is EnumValue && !compound))
            throw new EvalException($"cannot assign {Display.RuntimeTypeName(value)} to '{text}' ({name})");
        if (value.GetType() == target) return value;
        if (target == typeof(bool) || value is bool)
            throw new EvalException($"cannot assign {Display.LocalTypeName(value)} to '{text}' ({name})");
        if (compound || ImplicitlyConverts(value, target) || FitsAsConstant(value, target))
            return Operators.Convert(value, target, text)!;
        throw new EvalException($"cannot implicitly convert {Display.LocalTypeName(value)} {Display.Format(value, false)} to {name} for '{text}' (write a cast)");
    }

    /// <summary>C#'s implicit numeric conversions.</summary>
    private static bool ImplicitlyConverts(object value, Type target)
    {
        TypeCode to = Type.GetTypeCode(target);
        bool toFloat = to is TypeCode.Single or TypeCode.Double or TypeCode.Decimal;
        return Type.GetTypeCode(value.GetType()) switch
        {
            TypeCode.SByte => to is TypeCode.Int16 or TypeCode.Int32 or TypeCode.Int64 || toFloat,
            TypeCode.Byte => to is TypeCode.Int16 or TypeCode.UInt16 or TypeCode.Int32 or TypeCode.UInt32 or TypeCode.Int64 or TypeCode.UInt64 || toFloat,
            TypeCode.Int16 => to is TypeCode.Int32 or TypeCode.Int64 || toFloat,
            TypeCode.UInt16 or TypeCode.Char => to is TypeCode.Int32 or TypeCode.UInt32 or TypeCode.Int64 or TypeCode.UInt64 || toFloat
                || (to == TypeCode.UInt16 && value is char),
            TypeCode.Int32 => to is TypeCode.Int64 || toFloat,
            TypeCode.UInt32 => to is TypeCode.Int64 or TypeCode.UInt64 || toFloat,
            TypeCode.Int64 or TypeCode.UInt64 => toFloat,
            TypeCode.Single => to == TypeCode.Double,
            _ => false,
        };
    }

    /// <summary>An int that fits the target integer type, as a C# constant would (`b = 5` for a byte).</summary>
    private static bool FitsAsConstant(object value, Type target)
    {
        if (value is not (int or long) || target == typeof(char) || target == typeof(float) || target == typeof(double)) return false;
        long number = Convert.ToInt64(value);
        try
        {
            return Convert.ToInt64(Convert.ChangeType(number, target)) == number;
        }
        catch (OverflowException)
        {
            return false;
        }
    }

    private static unsafe void WriteBytes(ICorDebugValue storage, byte[] bytes, string text)
    {
        if (storage is not ICorDebugGenericValue generic) throw new EvalException($"'{text}' cannot be written");
        fixed (byte* raw = bytes)
            if (generic.SetValue((nint)raw) is var hr and < 0) throw new EvalException($"cannot write '{text}' (0x{hr:X8})");
    }

    private static void WriteReference(EvalContext context, ICorDebugReferenceValue storage, Func<ICorDebugValue> locate, object? value, string text)
    {
        string declared = DeclaredType(storage) ?? throw new EvalException($"cannot assign to '{text}': its declared type is unknown");
        ulong address;
        switch (value)
        {
            case null:
                address = 0;
                break;
            case string s when declared is "string" or "object":
                ICorDebugValue made = context.NewString(s);
                if (made is not ICorDebugReferenceValue madeReference || madeReference.GetValue(out address) < 0)
                    throw new EvalException($"cannot make the string for '{text}'");
                storage = locate() as ICorDebugReferenceValue ?? throw new EvalException($"'{text}' went away");
                break;
            case RemoteValue remote when remote.Value is ICorDebugReferenceValue source && Types.IsInstance(remote, declared, context):
                if (source.GetValue(out address) < 0) throw new EvalException($"cannot read the object for '{text}'");
                break;
            default:
                throw new EvalException($"cannot assign {Display.RuntimeTypeName(value)} to '{text}' ({declared})");
        }
        if (storage.SetValue(address) is var hr and < 0) throw new EvalException($"cannot write '{text}' (0x{hr:X8})");
    }

    /// <summary>The C# name of the type a reference slot is declared with.</summary>
    private static string? DeclaredType(ICorDebugReferenceValue storage) =>
        storage is ICorDebugValue2 typed && typed.GetExactType(out var type) >= 0 ? TypeNames.Format(type) : null;

    private static void WriteValueType(EvalContext context, ICorDebugValue storage, Func<ICorDebugValue> locate, object? value, bool compound, string text)
    {
        object? current = EvalValues.FromDebuggee(storage);
        string typeName = storage is ICorDebugValue2 typed && typed.GetExactType(out var type) >= 0 ? TypeNames.Format(type) : "struct";
        if (typeName.EndsWith('?'))
        {
            WriteNullable(context, storage, locate, value, compound, text);
            return;
        }
        switch (current)
        {
            case decimal:
                WriteBytes(storage, DecimalBytes(value, compound, text), text);
                return;
            case EnumValue e:
                long number = value switch
                {
                    EnumValue v when v.TypeName == e.TypeName || compound => v.Number,
                    int or long when compound => Convert.ToInt64(value),
                    0 => 0,
                    _ => throw new EvalException($"cannot assign {Display.RuntimeTypeName(value)} to '{text}' ({e.TypeName})"),
                };
                storage.GetSize(out uint size);
                WriteBytes(storage, BitConverter.GetBytes(number)[..(int)size], text);
                return;
        }
        if (value is RemoteValue remote && Display.RuntimeTypeName(remote) == typeName && ValueText.RawBytes(ValuePath.Dereference(remote.Value)!) is { } raw)
        {
            WriteBytes(storage, raw, text);
            return;
        }
        throw new EvalException($"cannot assign {Display.RuntimeTypeName(value)} to '{text}' ({typeName})");
    }

    private static byte[] DecimalBytes(object? value, bool compound, string text)
    {
        decimal number = value switch
        {
            decimal d => d,
            sbyte or byte or short or ushort or int or uint or long or ulong or char => Convert.ToDecimal(value),
            float or double when compound => (decimal)Operators.Convert(value, typeof(decimal), text)!,
            _ => throw new EvalException($"cannot assign {Display.RuntimeTypeName(value)} to '{text}' (decimal){(value is double or float ? " (write a cast or an m suffix)" : "")}"),
        };
        int[] bits = decimal.GetBits(number);   // lo, mid, hi, flags; the runtime keeps flags, hi, lo, mid
        return [.. BitConverter.GetBytes(bits[3]), .. BitConverter.GetBytes(bits[2]), .. BitConverter.GetBytes(bits[0]), .. BitConverter.GetBytes(bits[1])];
    }

    /// <summary>`int? x = 5` sets value then hasValue; `= null` clears hasValue.</summary>
    private static void WriteNullable(EvalContext context, ICorDebugValue storage, Func<ICorDebugValue> locate, object? value, bool compound, string text)
    {
        ICorDebugValue Field(string name) => ValuePath.Member(locate(), name) ?? throw new EvalException($"'{text}' is not a readable nullable");
        if (value is not null)
            Write(context, () => Field("value"), value, compound, text);
        WriteBytes(Field("hasValue"), [(byte)(value is null ? 0 : 1)], text);
    }
}
