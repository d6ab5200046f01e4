// A method body's IL decoded once into instructions: the opcode (System.Reflection.Emit's
// table), its operand and where each instruction starts, so branches jump by index.
using System.Reflection;
using System.Reflection.Emit;

namespace PyInspect.Debugger.Evaluation.IL.Metadata;

/// <summary>One decoded instruction: Operand is an int (tokens, branch targets as offsets,
/// int32 constants, locals), a long, a double, or int[] (switch targets as offsets).</summary>
public readonly record struct IlInstruction(int Offset, OpCode OpCode, object? Operand);

/// <summary>A try block's protected range and its handler, by IL offsets; a catch names its class token
/// (CatchType), a filter where its filter block starts (FilterStart).</summary>
public sealed record IlRegion(IlRegionKind Kind, int TryStart, int TryEnd, int HandlerStart, int HandlerEnd, int CatchType = 0, int FilterStart = 0)
{
    public bool IsFinally => Kind is IlRegionKind.Finally or IlRegionKind.Fault;
    public bool Protects(int offset) => offset >= TryStart && offset < TryEnd;
}

public enum IlRegionKind { Catch, Filter, Finally, Fault }

public sealed class IlCode
{
    private static readonly OpCode?[] OneByte = new OpCode?[256];
    private static readonly OpCode?[] TwoByte = new OpCode?[256];

    static IlCode()
    {
        foreach (FieldInfo field in typeof(OpCodes).GetFields(BindingFlags.Public | BindingFlags.Static))
        {
            if (field.GetValue(null) is not OpCode code) continue;
            ushort value = (ushort)code.Value;
            if (code.Size == 1) OneByte[value] = code;
            else TwoByte[value & 0xFF] = code;
        }
    }

    public IReadOnlyList<IlInstruction> Instructions { get; }
    public IReadOnlyList<IlRegion> Regions { get; }
    private readonly Dictionary<int, int> _indexOfOffset;

    public IlCode(IReadOnlyList<IlInstruction> instructions, IReadOnlyList<IlRegion>? regions = null)
    {
        Instructions = instructions;
        Regions = regions ?? [];
        _indexOfOffset = new Dictionary<int, int>(instructions.Count);
        for (int i = 0; i < instructions.Count; i++) _indexOfOffset[instructions[i].Offset] = i;
    }

    /// <summary>The instruction index at an IL offset (a branch target); throws on a target inside an instruction.</summary>
    public int IndexOf(int offset) =>
        _indexOfOffset.TryGetValue(offset, out int index) ? index : throw new InvalidProgramException($"no instruction at IL_{offset:X4}");

    public static IlCode Decode(ReadOnlySpan<byte> il, IReadOnlyList<IlRegion>? regions = null)
    {
        var instructions = new List<IlInstruction>();
        int position = 0;
        while (position < il.Length)
        {
            int start = position;
            byte first = il[position++];
            OpCode? code = first == 0xFE
                ? (position < il.Length ? TwoByte[il[position++]] : null)
                : OneByte[first];
            if (code is not { } op) throw new InvalidProgramException($"unknown opcode 0x{first:X2} at IL_{start:X4}");
            object? operand = ReadOperand(op, il, ref position);
            if (operand is int relative && op.OperandType is OperandType.InlineBrTarget or OperandType.ShortInlineBrTarget)
                operand = position + relative;
            if (operand is int[] targets)
                for (int t = 0; t < targets.Length; t++) targets[t] += position;
            instructions.Add(new IlInstruction(start, op, operand));
        }
        return new IlCode(instructions, regions);
    }

    private static object? ReadOperand(OpCode op, ReadOnlySpan<byte> il, ref int position)
    {
        switch (op.OperandType)
        {
            case OperandType.InlineNone:
                return null;
            case OperandType.ShortInlineBrTarget:
                return (int)(sbyte)il[position++];
            case OperandType.ShortInlineI:
                return op == OpCodes.Ldc_I4_S ? (int)(sbyte)il[position++] : (int)il[position++];
            case OperandType.ShortInlineVar:
                return (int)il[position++];
            case OperandType.InlineVar:
                position += 2;
                return (int)BitConverter.ToUInt16(il[(position - 2)..]);
            case OperandType.InlineI8:
                position += 8;
                return BitConverter.ToInt64(il[(position - 8)..]);
            case OperandType.InlineR:
                position += 8;
                return BitConverter.ToDouble(il[(position - 8)..]);
            case OperandType.ShortInlineR:
                position += 4;
                return (double)BitConverter.ToSingle(il[(position - 4)..]);
            case OperandType.InlineSwitch:
                int count = BitConverter.ToInt32(il[position..]);
                position += 4;
                var targets = new int[count];
                for (int i = 0; i < count; i++, position += 4) targets[i] = BitConverter.ToInt32(il[position..]);
                return targets;
            default:  // InlineI, InlineBrTarget, tokens (InlineMethod, InlineField, InlineType, InlineTok, InlineString, InlineSig)
                position += 4;
                return BitConverter.ToInt32(il[(position - 4)..]);
        }
    }
}
