// Enumerating a sequence the interpreter made (Enumerable.Cast's iterator over a collection the
// evaluator does not read itself, an iterator a getter returned): IEnumerable.GetEnumerator, then IEnumerator.MoveNext and
// Current until MoveNext says false, each interpreted on the sequence's own type. What the
// enumeration changes lives in the adapter (the iterator's state); a store into the debuggee
// is refused as in any interpreted call, and the instruction budget bounds it.
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.IL.Machine;
using PyInspect.Debugger.Evaluation.IL.Metadata;

namespace PyInspect.Debugger.Evaluation.Getters;

public static class IlEnumeration
{
    /// <summary>The items of a made sequence as evaluator values (boxed values come back as their values).</summary>
    public static IReadOnlyList<object?> Items(EvalContext context, MadeValue sequence, string sourceText)
    {
        IlMachine machine = IlCalls.MachineOf(context);
        try
        {
            IlNamed enumerable = machine.Resolver.CoreLibType("System.Collections", "IEnumerable");
            IlNamed enumerator = machine.Resolver.CoreLibType("System.Collections", "IEnumerator");
            object held = sequence.Held;
            object? cursor = Call(machine, Method(machine, enumerable, "GetEnumerator"), held) ?? throw IlErrors.NullReference();
            IlMethod moveNext = Method(machine, enumerator, "MoveNext"), current = Method(machine, enumerator, "get_Current");
            var items = new List<object?>();
            while (IlValue.AsLong(Call(machine, moveNext, cursor)) != 0)
                items.Add(IlResults.ToEvaluator(machine, Call(machine, current, cursor), IlPrimitive.Object));
            return items;
        }
        catch (IlThrown thrown)
        {
            throw new EvalException($"enumerating '{sourceText}' threw {thrown.TypeName}: {thrown.Message}");
        }
        catch (IlRefusal refusal)
        {
            string where = refusal.Method is { } inner ? $" in {inner}" : "";
            string call = $"enumerating {sequence.TypeName} ({refusal.Reason}{where})";
            if (context.CallsRefused) throw new CallRefusedException(call);
            throw new EvalException($"cannot evaluate '{sourceText}': {call}, which func-eval cannot run on a value the debuggee does not hold");
        }
    }

    /// <summary>An interface method called on an object as callvirt calls it: the body of its runtime type
    /// (a struct's body gets a pointer into its box).</summary>
    private static object? Call(IlMachine machine, IlMethod method, object receiver)
    {
        IlMethod body = machine.Devirtualize(method, machine.RuntimeType(receiver));
        return machine.Run(body, [IlMachine.ThisFor(body, receiver)]);
    }

    private static IlMethod Method(IlMachine machine, IlNamed type, string name) =>
        machine.Resolver.MethodsNamed(type, name).FirstOrDefault() ?? throw new IlRefusal($"cannot find {type.Name}.{name}");
}
