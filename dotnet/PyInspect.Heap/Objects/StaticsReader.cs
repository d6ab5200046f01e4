using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>Static fields of a type, read per app domain (one on CoreCLR).</summary>
internal sealed class StaticsReader
{
    private readonly ClrRuntime _runtime;
    private readonly int _pointerSize;

    public StaticsReader(ClrRuntime runtime, int pointerSize)
    {
        _runtime = runtime;
        _pointerSize = pointerSize;
    }

    public List<FieldRecord> Read(string typeName)
    {
        var type = _runtime.EnumerateModules()
            .Select(m => m.GetTypeByName(typeName))
            .FirstOrDefault(t => t is not null);
        if (type is null)
            throw new HeapTargetException("INVALID_PARAMETER", $"no loaded type named {typeName}");
        var domain = _runtime.AppDomains.FirstOrDefault() ?? _runtime.SharedDomain;
        var result = new List<FieldRecord>();
        foreach (var field in type.StaticFields)
            result.Add(ReadOne(field, domain));
        return result;
    }

    private FieldRecord ReadOne(ClrStaticField field, ClrAppDomain? domain)
    {
        var record = new FieldRecord { Name = field.Name ?? "?", TypeName = field.Type?.Name ?? "?", Size = field.Size };
        if (domain is null || !field.IsInitialized(domain))
        {
            record.Value = "<uninitialized>";
            return record;
        }
        ulong address = field.GetAddress(domain);
        record.Address = HeapJson.Hex(address);
        var element = field.ElementType;
        if (ValueFormatter.IsReference(element))
        {
            var target = field.ReadObject(domain);
            record.IsNull = target.IsNull;
            record.Value = target.IsNull ? "null" : ValueFormatter.Reference(target);
            record.HasChildren = !target.IsNull;
            record.Address = target.IsNull ? null : HeapJson.Hex(target.Address);
        }
        else if (ValueFormatter.PrimitiveSize(element, _pointerSize) > 0)
        {
            record.Value = ValueFormatter.Primitive(_runtime.DataTarget.DataReader, element, address);
        }
        else
        {
            record.IsValueType = true;
            record.HasChildren = true;
            record.Value = "{" + (field.Type?.Name ?? "?") + "}";
        }
        return record;
    }
}
