using System.Reflection;
using System.Text.Json;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// The helper objects one dump reader's calls address, and the calls themselves, named as
/// data (pyinspect/heap/helper_calls.py's Call): a member of an object of the table (id 0 is
/// the opened HeapTarget) or of a helper type (a static), called with arguments or read as a
/// property when there are none. A string, number, boolean or null answers as itself, any
/// other object stays in the table and answers as its id: the same rule the in-process
/// table (pythonnet) follows, so both hostings answer alike.
/// </summary>
public sealed class NamedCalls : IDisposable
{
    private const string Namespace = "PyInspect.Heap.";
    private readonly Dictionary<long, object> _objects = [];
    private long _next = 1;

    private string? _readAheadPath;
    private DataTarget? _readAhead;

    /// <summary>Read the dump's file while the parent still prepares its first request.</summary>
    public void ReadAhead(string path)
    {
        _readAheadPath = path;
        _readAhead = HeapTarget.ReadAhead(path);
    }

    /// <summary>Open the dump as the table's first object (sourcesJson: pyinspect's dac_sources_json),
    /// from its read-ahead file when that is the same path.</summary>
    public void OpenDump(string path, string sourcesJson)
    {
        DataTarget? readAhead = _readAheadPath == path ? _readAhead : null;
        if (readAhead is null)
            _readAhead?.Dispose();
        _readAhead = null;
        _readAheadPath = null;
        _objects.Clear();
        _objects[0] = HeapTarget.OpenDump(path, sourcesJson, readAhead);
    }

    /// <summary>What every question reads first (<see cref="HeapTarget.Prepare"/>), done after the
    /// open is answered; a failure here is left for the question that reads it to report.</summary>
    public void Prepare()
    {
        try
        {
            (_objects.GetValueOrDefault(0) as HeapTarget)?.Prepare();
        }
        catch (Exception)
        {
            // the first question reads the same and says why
        }
    }

    public void Release(long id) => _objects.Remove(id);

    /// <summary>One call's answer: a plain value, or <see cref="HeldObject"/> for an object kept here.
    /// on: a type's name (a static member) or {"ref": id}; args: an array, or null to read a property.</summary>
    public object? Run(JsonElement on, string member, JsonElement args)
    {
        (Type type, object? owner) = Owner(on);
        BindingFlags flags = BindingFlags.Public | (owner is null ? BindingFlags.Static : BindingFlags.Instance);
        object? value;
        if (args.ValueKind == JsonValueKind.Null)
        {
            PropertyInfo property = type.GetProperty(member, flags)
                ?? throw new HeapTargetException("HEAP_READ_ERROR", $"{type.Name} has no property {member}");
            value = Invoke(() => property.GetValue(owner));
        }
        else
        {
            JsonElement[] given = [.. args.EnumerateArray()];
            MethodInfo method = Method(type, flags, member, given.Length);
            ParameterInfo[] parameters = method.GetParameters();
            object?[] values = new object?[parameters.Length];
            for (int i = 0; i < parameters.Length; i++)
                values[i] = i < given.Length ? Argument(given[i], parameters[i].ParameterType) : parameters[i].DefaultValue;
            value = Invoke(() => method.Invoke(owner, values));
        }
        return Answer(value);
    }

    /// <summary>Dispose of the target and forget every object.</summary>
    public void Dispose()
    {
        _readAhead?.Dispose();
        _readAhead = null;
        _objects.TryGetValue(0, out object? target);
        _objects.Clear();
        (target as IDisposable)?.Dispose();
    }

    private (Type, object?) Owner(JsonElement on)
    {
        if (on.ValueKind == JsonValueKind.String)
        {
            Type type = typeof(NamedCalls).Assembly.GetType(Namespace + on.GetString())
                ?? throw new HeapTargetException("HEAP_READ_ERROR", $"the helper has no type {on.GetString()}");
            return (type, null);
        }
        object owner = Held(on.GetProperty("ref").GetInt64());
        return (owner.GetType(), owner);
    }

    private object Held(long id) => _objects.TryGetValue(id, out object? found) ? found
        : throw new ReleasedObjectException(id);

    private static MethodInfo Method(Type type, BindingFlags flags, string member, int count)
    {
        MethodInfo[] named = [.. type.GetMethods(flags).Where(m => m.Name == member)];
        return named.FirstOrDefault(m => m.GetParameters().Length == count)
            ?? named.FirstOrDefault(m => m.GetParameters().Length > count && m.GetParameters()[count..].All(p => p.IsOptional))
            ?? throw new HeapTargetException("HEAP_READ_ERROR", $"{type.Name} has no method {member} taking {count} arguments");
    }

    private object? Argument(JsonElement value, Type type)
    {
        if (value.ValueKind == JsonValueKind.Null)
            return null;
        if (value.ValueKind == JsonValueKind.Object)
            return Held(value.GetProperty("ref").GetInt64());
        Type plain = Nullable.GetUnderlyingType(type) ?? type;
        return Type.GetTypeCode(plain) switch
        {
            TypeCode.String => value.GetString(),
            TypeCode.Boolean => value.GetBoolean(),
            TypeCode.Int32 => value.GetInt32(),
            TypeCode.Int64 => value.GetInt64(),
            TypeCode.UInt32 => value.GetUInt32(),
            TypeCode.UInt64 => value.GetUInt64(),
            TypeCode.Double => value.GetDouble(),
            TypeCode.Single => value.GetSingle(),
            _ => throw new HeapTargetException("HEAP_READ_ERROR", $"cannot pass {value.ValueKind} as {type.Name}"),
        };
    }

    private static object? Invoke(Func<object?> call)
    {
        try
        {
            return call();
        }
        catch (TargetInvocationException exc) when (exc.InnerException is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(exc.InnerException);
            throw;
        }
    }

    private object? Answer(object? value)
    {
        if (value is null or string or bool or int or long or uint or ulong or short or ushort or byte or sbyte
            or double or float)
            return value;
        long id = _next++;
        _objects[id] = value;
        return new HeldObject(id);
    }
}
