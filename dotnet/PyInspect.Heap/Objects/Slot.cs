using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Where one value is stored: an absolute address, the element type stored there (enums
/// already reduced to their underlying type) and its static type (a struct's layout; for
/// references only a hint, the object's own type is read from the heap).
/// </summary>
internal readonly record struct Slot(ulong Location, ClrElementType Element, ClrType? Type)
{
    public static Slot Of(ulong location, ClrElementType element, ClrType? type)
    {
        if (element == ClrElementType.Struct && type is { IsEnum: true })
            element = type.AsEnum().ElementType;
        return new Slot(location, element, type);
    }

    public static Slot OfField(ulong fieldsStart, ClrInstanceField field) =>
        Of(fieldsStart + (ulong)field.Offset, field.ElementType, field.Type);

    public bool IsReference => ValueFormatter.IsReference(Element);
}
