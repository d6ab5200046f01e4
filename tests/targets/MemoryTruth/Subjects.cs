using System.Reflection;
using System.Runtime.CompilerServices;

namespace MemoryTruth;

/// <summary>The objects for object_inspect and object_summarize, and their truth.</summary>
public static class Subjects
{
    /// <summary>The line a debugger stops on once the truth is written.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Ready(params object[] alive) => GC.KeepAlive(alive);

    public static Customer NewCustomer() => new()
    {
        Id = 42, Name = "John Doe", Email = "", Score = double.NaN, Ratio = float.PositiveInfinity,
        Balance = 1234.56m, CreatedAt = new DateTime(2026, 1, 15, 10, 30, 0, DateTimeKind.Utc),
        LastLogin = default, Seen = new DateTimeOffset(2026, 1, 15, 10, 30, 0, TimeSpan.FromHours(2)),
        NeverSeen = default, Token = Guid.Parse("0f8fad5b-d9cb-469f-a165-70867728950e"),
        EmptyToken = Guid.Empty, Age = TimeSpan.FromMinutes(90.5),
        Orders = new() { new Order { Number = 1 }, new Order { Number = 2 }, new Order { Number = 3 } },
        Scores = new() { ["math"] = 90, ["art"] = 75 },
        Tags = null, Address = null, Referrer = null,
    };

    public static Link Chain(int length)
    {
        Link head = null;
        for (int depth = length; depth >= 1; depth--)
            head = new Link { Depth = depth, Next = head };
        return head;
    }

    public static Dictionary<string, object> CustomerTruth(Customer c)
    {
        var fields = new Dictionary<string, object>();
        var nullFields = new List<string>();
        foreach (var field in typeof(Customer).GetFields(BindingFlags.Instance | BindingFlags.Public))
        {
            object value = field.GetValue(c);
            if (value is null && !field.FieldType.IsValueType)
                nullFields.Add(field.Name);
            fields[field.Name] = new Dictionary<string, object>
            {
                ["type"] = field.FieldType.ToString(),
                ["value"] = SummaryValue(value),
            };
        }
        return new Dictionary<string, object>
        {
            ["address"] = Truth.Hex(c),
            ["typeName"] = typeof(Customer).ToString(),
            ["size"] = Truth.SizeOf(c),
            ["totalFieldCount"] = fields.Count,
            ["fields"] = fields,
            ["nullFields"] = nullFields,
            ["collections"] = new Dictionary<string, object>
            {
                ["Orders"] = new object[] { c.Orders.Count, typeof(Order).ToString() },
                ["Scores"] = new object[] { c.Scores.Count, typeof(KeyValuePair<string, int>).ToString() },
            },
            ["interesting"] = new Dictionary<string, string>
            {
                ["Email"] = "empty_string", ["Score"] = "nan", ["Ratio"] = "infinity",
                ["LastLogin"] = "default_datetime", ["NeverSeen"] = "default_datetime",
                ["EmptyToken"] = "default_guid",
            },
            ["offsets"] = new Dictionary<string, object>
            {
                ["Id"] = Truth.Field(c, ref c.Id, "42"),
                ["Name"] = Truth.Field(c, ref c.Name, "\"John Doe\""),
                ["Balance"] = Truth.Field(c, ref c.Balance, "1234.56"),
                ["Orders"] = Truth.Field(c, ref c.Orders, "{" + c.Orders.GetType() + "}"),
                ["Seen"] = Truth.Field(c, ref c.Seen, Truth.Format(c.Seen)),
            },
        };
    }

    private static string SummaryValue(object value) => value switch
    {
        List<Order> list => $"List<Order>[{list.Count}]",
        Dictionary<string, int> dict => $"Dictionary<String, Int32>[{dict.Count}]",
        _ => Truth.Format(value),
    };

    public static Dictionary<string, object> SelfTruth(SelfRef s) => new()
    {
        ["address"] = Truth.Hex(s),
        ["size"] = Truth.SizeOf(s),
        ["fields"] = new Dictionary<string, object>
        {
            ["Tag"] = Truth.Field(s, ref s.Tag, "1"),
            ["Self"] = Truth.Field(s, ref s.Self, "{MemoryTruth.SelfRef}"),
        },
    };

    public static Dictionary<string, object> ChainTruth(Link head)
    {
        var addresses = new List<string>();
        for (var link = head; link is not null; link = link.Next)
            addresses.Add(Truth.Hex(link));
        return new Dictionary<string, object> { ["address"] = Truth.Hex(head), ["links"] = addresses };
    }

    public static Dictionary<string, object> BoxTruth(Box b) => new()
    {
        ["address"] = Truth.Hex(b),
        ["size"] = Truth.SizeOf(b),
        ["fields"] = new Dictionary<string, object>
        {
            ["Flag"] = Truth.Field(b, ref b.Flag, "1"),
            ["Content"] = Truth.Field(b, ref b.Content, "{MemoryTruth.Outer}"),
            ["Content.A"] = Truth.Field(b, ref b.Content.A, "5"),
            ["Content.Inner"] = Truth.Field(b, ref b.Content.Inner, "{MemoryTruth.Point}"),
            ["Content.Inner.X"] = Truth.Field(b, ref b.Content.Inner.X, "6"),
            ["Content.Inner.Y"] = Truth.Field(b, ref b.Content.Inner.Y, "7"),
            ["Content.Inner.Z"] = Truth.Field(b, ref b.Content.Inner.Z, "8"),
        },
    };
}
