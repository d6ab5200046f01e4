// A variable's children, one page at a time: object fields (base classes included,
// auto-properties under their property's name) and array elements in row-major order.
using PyInspect.Debugger.Engine;

namespace PyInspect.Debugger.Values;

public static class ChildReader
{
    public static int Count(ChildSource source) => source switch
    {
        ObjectChildren o => VariableReader.InstanceFields(o.Type).Count,
        ArrayChildren a => (int)a.Dimensions.Aggregate(1L, (acc, d) => acc * d),
        ListChildren l => l.Items.Count,
        MadeChildren m => m.Items.Value.Count,
        CollectionChildren c => c.Count + 1,  // the items, then "Raw View"
        _ => 0,
    };

    public static IReadOnlyList<VariableView> Read(ChildSource source, int start, int? count, bool hex)
    {
        int total = Count(source);
        int first = Math.Clamp(start, 0, total);
        int take = Math.Min(count is > 0 ? count.Value : VariableReader.DefaultPageSize, total - first);
        return source switch
        {
            ObjectChildren o => ReadFields(o, first, take, hex),
            ArrayChildren a => ReadElements(a, first, take, hex),
            ListChildren l => [.. l.Items.Skip(first).Take(take)],
            MadeChildren m => [.. m.Items.Value.Skip(first).Take(take)],
            CollectionChildren c => ReadCollection(c, first, take, hex),
            _ => [],
        };
    }

    private static List<VariableView> ReadFields(ObjectChildren source, int first, int take, bool hex)
    {
        var views = new List<VariableView>(take);
        ICorDebugObjectValue obj = source.Current();
        foreach (var (cls, field) in VariableReader.InstanceFields(source.Type).Skip(first).Take(take))
        {
            string evaluateName = $"{source.EvaluateName}.{field.DisplayName}";
            int hr = obj.GetFieldValue(cls, field.Token, out var value);
            views.Add(hr < 0
                ? new VariableView(field.DisplayName, $"<unavailable: 0x{hr:X8}>", "?", evaluateName, null, null)
                : VariableReader.Describe(field.DisplayName, evaluateName, value, hex));
        }
        return views;
    }

    private static List<VariableView> ReadCollection(CollectionChildren source, int first, int take, bool hex)
    {
        var views = new List<VariableView>(CollectionItems.Read(source, first, Math.Min(take, source.Count - first), hex));
        if (first + take > source.Count)
            views.Add(new VariableView("Raw View", "", "", source.EvaluateName, null, source.Raw,
                NamedCount: Count(source.Raw) + PropertyGetters.Find(source.Raw.Type).Count));
        return views;
    }

    private static List<VariableView> ReadElements(ArrayChildren source, int first, int take, bool hex)
    {
        var views = new List<VariableView>(take);
        for (int position = first; position < first + take; position++)
        {
            string index = IndexText(source.Dimensions, position);
            string evaluateName = $"{source.EvaluateName}[{index}]";
            int hr = source.Array.GetElementAtPosition((uint)position, out var value);
            views.Add(hr < 0
                ? new VariableView($"[{index}]", $"<unavailable: 0x{hr:X8}>", "?", evaluateName, null, null)
                : VariableReader.Describe($"[{index}]", evaluateName, value, hex));
        }
        return views;
    }

    /// <summary>"3" for a vector, "1, 2" for a two-dimensional array (row-major position).</summary>
    public static string IndexText(uint[] dimensions, int position)
    {
        if (dimensions.Length == 1) return position.ToString(System.Globalization.CultureInfo.InvariantCulture);
        var indices = new long[dimensions.Length];
        long rest = position;
        for (int d = dimensions.Length - 1; d >= 0; d--)
        {
            indices[d] = dimensions[d] == 0 ? 0 : rest % dimensions[d];
            rest = dimensions[d] == 0 ? 0 : rest / dimensions[d];
        }
        return string.Join(", ", indices);
    }
}
