using HeapTruth;

namespace HeapTruth;

/// <summary>Builds the objects under test and their truth; keeps them alive.</summary>
public static class Measure
{
    private static readonly List<object> Alive = new();

    public static void KeepAll() => GC.KeepAlive(Alive);

    public static Dictionary<string, object> Build()
    {
        var friend = new Animal { Legs = 2, Name = null, Id = -5 };
        var dog = new Dog
        {
            Legs = 4, Name = "Rex héllo wörld ✓ 日本", Id = 1234567890123L, Weight = 12.5,
            Position = new Point { X = 3, Y = -7, Z = 99 }, Friend = friend, Good = true,
            Initial = 'R', Mood = Mood.Happy,
        };
        dog.Self = dog;
        var holder = new Holder
        {
            Numbers = new[] { 10, 20, 30 },
            Grid = new int[2, 3] { { 1, 2, 3 }, { 4, 5, 6 } },
            Jagged = new[] { new[] { 7 }, null, new[] { 8, 9 } },
            Words = new[] { "alpha", null, "γάμμα" },
            Points = new[] { new Point { X = 1, Y = 2, Z = 3 }, new Point { X = 4, Y = 5, Z = 6 } },
            Text = "",
        };
        Alive.AddRange(new object[] { friend, dog, holder });
        return new Dictionary<string, object>
        {
            ["pid"] = Environment.ProcessId,
            ["dog"] = DogTruth(dog),
            ["friend"] = Truth.Object(friend, "HeapTruth.Animal", new()
            {
                ["Legs"] = Truth.Field(friend, ref friend.Legs, "2"),
                ["Name"] = Truth.Field(friend, ref friend.Name, "null"),
                ["Id"] = Truth.Field(friend, ref friend.Id, "-5"),
            }),
            ["holder"] = HolderTruth(holder),
            ["statics"] = new Dictionary<string, object>
            {
                ["typeName"] = "HeapTruth.Registry",
                ["Counter"] = Truth.Num(Registry.Counter),
                ["Label"] = $"\"{Registry.Label}\"",
                ["labelAddress"] = "0x" + Truth.AddressOf(Registry.Label).ToString("X16"),
                ["Nobody"] = "null",
            },
            ["name"] = StringTruth(dog.Name),
            ["numbers"] = ArrayTruth(holder.Numbers, "System.Int32[]", new[] { 3 }, sizeof(int), i => Truth.Num(holder.Numbers[i])),
            ["grid"] = ArrayTruth(holder.Grid, "System.Int32[,]", new[] { 2, 3 }, sizeof(int), i => Truth.Num(holder.Grid[i / 3, i % 3])),
            ["jagged"] = ArrayTruth(holder.Jagged, "System.Int32[][]", new[] { 3 }, IntPtr.Size, i => holder.Jagged[i] is null ? "null" : $"{{System.Int32[{holder.Jagged[i].Length}]}}"),
            ["words"] = ArrayTruth(holder.Words, "System.String[]", new[] { 3 }, IntPtr.Size, i => holder.Words[i] is null ? "null" : $"\"{holder.Words[i]}\""),
        };
    }

    private static Dictionary<string, object> DogTruth(Dog dog) => Truth.Object(dog, "HeapTruth.Dog", new()
    {
        ["Legs"] = Truth.Field(dog, ref dog.Legs, "4"),
        ["Name"] = Truth.Field(dog, ref dog.Name, $"\"{dog.Name}\""),
        ["Id"] = Truth.Field(dog, ref dog.Id, "1234567890123"),
        ["Weight"] = Truth.Field(dog, ref dog.Weight, "12.5"),
        ["Position"] = Truth.Field(dog, ref dog.Position, "{HeapTruth.Point}"),
        ["Position.X"] = Truth.Field(dog, ref dog.Position.X, "3"),
        ["Position.Y"] = Truth.Field(dog, ref dog.Position.Y, "-7"),
        ["Position.Z"] = Truth.Field(dog, ref dog.Position.Z, "99"),
        ["Self"] = Truth.Field(dog, ref dog.Self, "{HeapTruth.Dog}"),
        ["Friend"] = Truth.Field(dog, ref dog.Friend, "{HeapTruth.Animal}"),
        ["Good"] = Truth.Field(dog, ref dog.Good, "true"),
        ["Initial"] = Truth.Field(dog, ref dog.Initial, "'R'"),
        ["Mood"] = Truth.Field(dog, ref dog.Mood, dog.Mood.ToString()),
    });

    private static Dictionary<string, object> HolderTruth(Holder h) => Truth.Object(h, "HeapTruth.Holder", new()
    {
        ["Numbers"] = Truth.Field(h, ref h.Numbers, "{System.Int32[3]}"),
        ["Grid"] = Truth.Field(h, ref h.Grid, "{System.Int32[2, 3]}"),
        ["Jagged"] = Truth.Field(h, ref h.Jagged, "{System.Int32[3][]}"),
        ["Words"] = Truth.Field(h, ref h.Words, "{System.String[3]}"),
        ["Points"] = Truth.Field(h, ref h.Points, "{HeapTruth.Point[2]}"),
        ["Text"] = Truth.Field(h, ref h.Text, "\"\""),
    });

    private static Dictionary<string, object> StringTruth(string text) => new()
    {
        ["address"] = "0x" + Truth.AddressOf(text).ToString("X16"),
        ["size"] = Truth.SizeOf(text),
        ["text"] = text,
    };

    private static unsafe Dictionary<string, object> ArrayTruth(Array array, string typeName, int[] dims, int elementSize, Func<int, string> value)
    {
        var elements = new Dictionary<string, object>();
        for (int i = 0; i < array.Length; i++)
            elements[ElementName(i, dims)] = new Dictionary<string, object>
            {
                ["offset"] = ElementOffset(array, i, elementSize),
                ["value"] = value(i),
            };
        return new Dictionary<string, object>
        {
            ["address"] = "0x" + Truth.AddressOf(array).ToString("X16"),
            ["typeName"] = typeName,
            ["size"] = Truth.SizeOf(array),
            ["length"] = array.Length,
            ["dimensions"] = dims,
            ["elements"] = elements,
        };
    }

    private static unsafe long ElementOffset(Array array, int flatIndex, int elementSize)
    {
        ref byte first = ref System.Runtime.InteropServices.MemoryMarshal.GetArrayDataReference(array);
        return (long)((ulong)System.Runtime.CompilerServices.Unsafe.AsPointer(ref first) - Truth.AddressOf(array)) + (long)flatIndex * elementSize;
    }

    private static string ElementName(int i, int[] dims) =>
        dims.Length == 1 ? $"[{i}]" : $"[{i / dims[1]}, {i % dims[1]}]";
}
