using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// An async state machine inside its box: a class in Debug builds (the box's StateMachine
/// field references it), a struct in Release builds (embedded in the box). Its state is
/// `&lt;&gt;1__state`; the task it awaits is in the first awaiter field (`&lt;&gt;u__N`) holding one
/// (TaskAwaiter's `m_task`, ValueTaskAwaiter's `_value._obj`, or the field itself).
/// </summary>
public sealed class StateMachine
{
    public ClrType? Type { get; private init; }
    public int State { get; private init; } = -1;
    public ClrObject? AwaitedTask { get; private init; }

    public static StateMachine Of(ClrObject box, ClrInstanceField machineField)
    {
        if (machineField.IsObjectReference)
        {
            var machine = box.ReadObjectField(machineField);
            if (machine.IsNull || machine.Type is null) return new StateMachine();
            machine.TryReadField("<>1__state", out int state);
            return new StateMachine { Type = machine.Type, State = state, AwaitedTask = Awaited(machine.Type, f => f.IsObjectReference ? machine.ReadObjectField(f) : null, f => machine.ReadValueTypeField(f)) };
        }
        var embedded = box.ReadValueTypeField(machineField);
        if (embedded.Type is null) return new StateMachine();
        int embeddedState = embedded.Type.GetFieldByName("<>1__state") != null ? embedded.ReadField<int>("<>1__state") : -1;
        return new StateMachine
        {
            Type = embedded.Type, State = embeddedState,
            AwaitedTask = Awaited(embedded.Type, f => f.IsObjectReference ? embedded.ReadObjectField(f.Name!) : null, f => embedded.ReadValueTypeField(f.Name!)),
        };
    }

    private static ClrObject? Awaited(ClrType type, Func<ClrInstanceField, ClrObject?> readObject,
        Func<ClrInstanceField, ClrValueType> readStruct)
    {
        foreach (var field in type.Fields)
        {
            if (field.Name is not { } name || !name.StartsWith("<>u__", StringComparison.Ordinal)) continue;
            if (field.IsObjectReference)
            {
                if (readObject(field) is { IsNull: false } direct) return direct;
                continue;
            }
            var awaiter = readStruct(field);
            if (awaiter.Type?.GetFieldByName("m_task") != null && awaiter.ReadObjectField("m_task") is { IsNull: false } task)
                return task;
            if (awaiter.Type?.GetFieldByName("_value") != null && awaiter.ReadValueTypeField("_value") is { Type: { } valueType } value
                && valueType.GetFieldByName("_obj") != null && value.ReadObjectField("_obj") is { IsNull: false } obj)
                return obj;
        }
        return null;
    }
}
