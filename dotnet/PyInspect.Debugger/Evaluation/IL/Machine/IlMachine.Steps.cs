// One instruction at a time: loads, stores, branches, arithmetic, then the object model
// (IlMachine.Objects.cs) and calls (IlMachine.Calls.cs).
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.IL.Machine;

public sealed partial class IlMachine
{
    private Step Step1(Frame f, IlInstruction instruction, int index)
    {
        string name = instruction.OpCode.Name!;
        object? operand = instruction.Operand;
        int Int() => (int)operand!;
        switch (name)
        {
            case "nop" or "readonly." or "volatile." or "unaligned." or "tail." or "break":
                return Step.Next;
            case "constrained.":
                f.Constrained = resolver.ResolveType(f.Method.ModulePath, Int(), f.Method.Context);
                return Step.Next;
            case "ldarg.0" or "ldarg.1" or "ldarg.2" or "ldarg.3":
                f.Stack.Push(IlValue.CopyIfStruct(f.Args[name[^1] - '0']));
                return Step.Next;
            case "ldarg.s" or "ldarg":
                f.Stack.Push(IlValue.CopyIfStruct(f.Args[Int()]));
                return Step.Next;
            case "ldarga.s" or "ldarga":
                f.Stack.Push(new SlotRef(f.Args, Int()));
                return Step.Next;
            case "starg.s" or "starg":
                f.Args[Int()] = IlValue.Narrow(IlValue.CopyIfStruct(Pop(f)), ParameterType(f, Int()));
                return Step.Next;
            case "ldloc.0" or "ldloc.1" or "ldloc.2" or "ldloc.3":
                f.Stack.Push(IlValue.CopyIfStruct(f.Locals[name[^1] - '0']));
                return Step.Next;
            case "ldloc.s" or "ldloc":
                f.Stack.Push(IlValue.CopyIfStruct(f.Locals[Int()]));
                return Step.Next;
            case "ldloca.s" or "ldloca":
                f.Stack.Push(new SlotRef(f.Locals, Int()));
                return Step.Next;
            case "stloc.0" or "stloc.1" or "stloc.2" or "stloc.3":
                StoreLocal(f, name[^1] - '0');
                return Step.Next;
            case "stloc.s" or "stloc":
                StoreLocal(f, Int());
                return Step.Next;
            case "ldnull":
                f.Stack.Push(null);
                return Step.Next;
            case "ldc.i4.m1":
                f.Stack.Push(-1);
                return Step.Next;
            case "ldc.i4.s" or "ldc.i4" or "ldc.i8" or "ldc.r4" or "ldc.r8":
                f.Stack.Push(operand);
                return Step.Next;
            case "ldstr":
                f.Stack.Push(UserString(f, Int()));
                return Step.Next;
            case "dup":
                object? top = Pop(f);
                f.Stack.Push(top);
                f.Stack.Push(IlValue.CopyIfStruct(top));
                return Step.Next;
            case "pop":
                Pop(f);
                return Step.Next;
            case "ret":
                return new Step(StepKind.Return, 0, f.Method.ReturnType is IlPrimitive { ElementType: CorElementType.Void } ? null : Pop(f));
            case "switch":
                long selector = IlValue.AsLong(Pop(f));
                var targets = (int[])operand!;
                return selector >= 0 && selector < targets.Length ? new Step(StepKind.Jump, targets[selector]) : Step.Next;
            case "leave" or "leave.s":
                return new Step(StepKind.Leave, Int());
            case "endfinally":
                return new Step(StepKind.EndFinally);
            case "endfilter":
                return new Step(StepKind.EndFilter, 0, Pop(f));
            case "rethrow":
                throw f.Caught.Count > 0 ? f.Caught.Peek() : new IlRefusal("rethrows outside a catch handler");
            case "throw":
                throw Thrown(Pop(f));
            case "add" or "sub" or "mul" or "div" or "div.un" or "rem" or "rem.un" or "and" or "or" or "xor" or "shl" or "shr" or "shr.un"
                or "add.ovf" or "add.ovf.un" or "sub.ovf" or "sub.ovf.un" or "mul.ovf" or "mul.ovf.un":
                object? right = Pop(f), left = Pop(f);
                f.Stack.Push(IlArithmetic.Binary(name, left, right));
                return Step.Next;
            case "neg" or "not":
                f.Stack.Push(IlArithmetic.Unary(name, Pop(f)));
                return Step.Next;
            case "ceq" or "cgt" or "cgt.un" or "clt" or "clt.un":
                object? b = Pop(f), a = Pop(f);
                f.Stack.Push(Comparison(name, a, b) ? 1 : 0);
                return Step.Next;
        }
        if (name.StartsWith("ldc.i4.", StringComparison.Ordinal))
        {
            f.Stack.Push(name[^1] - '0');
            return Step.Next;
        }
        if (name.StartsWith("conv.", StringComparison.Ordinal))
        {
            f.Stack.Push(IlArithmetic.Convert(instruction.OpCode, Pop(f)));
            return Step.Next;
        }
        if (instruction.OpCode.OperandType is System.Reflection.Emit.OperandType.InlineBrTarget or System.Reflection.Emit.OperandType.ShortInlineBrTarget)
            return Branch(f, name.EndsWith(".s", StringComparison.Ordinal) ? name[..^2] : name, Int());
        return ObjectStep(f, name, operand);
    }

    private static IlType ParameterType(Frame f, int argument)
    {
        int index = f.Method.IsStatic ? argument : argument - 1;
        return index < 0 ? f.Method.DeclaringType : f.Method.Parameters[index];
    }

    private void StoreLocal(Frame f, int slot) => f.Locals[slot] = IlValue.Narrow(IlValue.CopyIfStruct(Pop(f)), f.LocalTypes[slot]);

    private static bool Comparison(string name, object? a, object? b) => name switch
    {
        "ceq" => IlArithmetic.Equal(a, b),
        "cgt" => IlArithmetic.Compare(a, b, false) is 1,
        "clt" => IlArithmetic.Compare(a, b, false) is -1,
        "cgt.un" => IlArithmetic.Compare(a, b, true) is 1 or null,
        _ => IlArithmetic.Compare(a, b, true) is -1 or null,
    };

    private Step Branch(Frame f, string name, int target)
    {
        bool taken;
        switch (name)
        {
            case "br":
                taken = true;
                break;
            case "brfalse" or "brtrue":
                object? value = Pop(f);
                bool truth = value switch { null => false, int i => i != 0, long l => l != 0, double d => d != 0, _ => true };
                taken = truth == (name == "brtrue");
                break;
            default:
                object? b = Pop(f), a = Pop(f);
                bool unsigned = name.EndsWith(".un", StringComparison.Ordinal);
                int? order = name.StartsWith("beq", StringComparison.Ordinal) || name.StartsWith("bne", StringComparison.Ordinal)
                    ? (IlArithmetic.Equal(a, b) ? 0 : 1) : IlArithmetic.Compare(a, b, unsigned);
                taken = name.Replace(".un", "", StringComparison.Ordinal) switch
                {
                    "beq" => order == 0,
                    "bne" => order != 0,
                    "bge" => order is >= 0 || (unsigned && order is null),
                    "bgt" => order is 1 || (unsigned && order is null),
                    "ble" => order is <= 0 || (unsigned && order is null),
                    "blt" => order is -1 || (unsigned && order is null),
                    _ => throw new IlRefusal($"uses {name}"),
                };
                break;
        }
        return taken ? new Step(StepKind.Jump, target) : Step.Next;
    }
}
