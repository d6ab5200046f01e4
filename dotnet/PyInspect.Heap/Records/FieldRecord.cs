namespace PyInspect.Heap;

/// <summary>
/// One field (or array element) of an object. <see cref="Offset"/> counts from the
/// address of the object being described (MethodTable pointer at 0), also for fields of
/// embedded structs, so it matches SOS's dumpobj and the inspection contract.
/// </summary>
public sealed class FieldRecord
{
    /// <summary>The name a person reads: an auto-property's backing field under the property's name.</summary>
    public string Name { get; set; } = "";
    /// <summary>The field's real name when Name differs (an auto-property's backing field).</summary>
    public string? FieldName { get; set; }
    public string TypeName { get; set; } = "";
    public string Value { get; set; } = "";
    public int Offset { get; set; }
    public int Size { get; set; }
    public bool HasChildren { get; set; }
    public bool IsNull { get; set; }
    public bool IsValueType { get; set; }
    /// <summary>Hex address of the referenced object, for non-null reference fields.</summary>
    public string? Address { get; set; }
    /// <summary>True when the reference leads to an object already on the expansion path.</summary>
    public bool IsCircularRef { get; set; }
    /// <summary>Children: embedded struct fields, or an expanded referenced object's fields.</summary>
    public List<FieldRecord>? Fields { get; set; }
}
