// Usage: GetterTruth TRUTH_FILE [getters|conditions]
//   getters     builds one object of every getter shape (PureGetters.cs, EffectfulGetters.cs)
//               and BCL values into Main's locals, writes what the program itself computes for
//               the pure getters (and SideEffects.Count, 0) to TRUTH_FILE, then reaches the
//               `getters` marker line.
//   conditions  runs a 40-iteration loop over Items with two marked breakpoint lines (`pure`,
//               `counted`), then a 30-iteration loop over base-typed Entries (`dispatch`: an
//               overridden, a counting and a throwing getter, nulls), then writes SideEffects.Count,
//               the loops' sum and DispatchEffects.Count to TRUTH_FILE.
using System.Globalization;
using System.Text;
using System.Text.Json;

namespace GetterTruth;

public static class Program
{
    public static void Main(string[] args)
    {
        string truthFile = args[0];
        if (args.Length > 1 && args[1] == "conditions")
            Conditions(truthFile);
        else
            Getters(truthFile);
    }

    private static void Getters(string truthFile)
    {
        var person = new Person("Ada", "Lovelace", 36);
        person.Add("notebook");
        var loner = new Person("Alan", "Turing", 17);
        Shape circle = new Circle(2.0);
        Shape square = new Square(3);
        Rectangle rectangle = new Rectangle(2, 5);
        var employee = new Employee("grace", 4);
        INamed named = employee;
        var intBox = new Box<int>(7);
        var textBox = new Box<string>("seven");
        var emptyBox = new Box<string>(null);
        var pair = new Pair<string, int>("answer", 42);
        var money = new Money(19.99m, "EUR");
        var zero = new Money(0m, "USD");
        var point = new Point(3, 4);
        var ages = new Dictionary<string, int> { ["ann"] = 31, ["bob"] = 42, ["cy"] = 7 };
        var numbers = new List<int> { 4, 8, 15, 16, 23, 42 };
        var unique = new HashSet<string> { "a", "b" };
        var queue = new Queue<int>([1, 2, 3]);
        var when = new DateTime(2026, 11, 26, 16, 30, 15, DateTimeKind.Utc);
        var span = TimeSpan.FromMinutes(90.5);
        int? maybe = 5;
        int? nothing = null;
        string text = "hello world";
        string empty = "";
        decimal price = 12.50m;
        decimal quantity = 3m;
        var builder = new StringBuilder("abc").Append("def");
        var version = new Version(1, 2, 3);
        var pairOfBcl = new KeyValuePair<string, DateTime>("start", when);
        var tracker = new Tracker();
        var thrower = new Thrower();
        var spinner = new Spinner();
        var features = new Features(new RequestFeature("GET"), new UserFeature("ada"));
        var anonymous = new Features(new RequestFeature("POST"), null);
        var textSlot = new Slot<string>();
        var numberSlot = new Slot<int>();
        var personSlot = new Slot<Person>();
        Registry<string>.Items.Add("first");
        Registry<string>.Items.Add("second");
        var catalog = new Catalog("ada", "ada");
        var guarded = new Guarded([5, 6, 7]);
        var names = new Dictionary<int, string> { [1] = "one", [2] = "two", [3] = "three" };
        var genericStatics = new GenericStatics();
        var catalogue = new Catalogue("ada");  // its caches stay empty: the truths come from a twin
        var twin = new Catalogue("ada");
        var basket = new Basket();
        PerThread.Enter("main");
        PerThread.Enter("main");
        var threadReport = new ThreadReport();

        var values = new Dictionary<string, object>
        {
            ["person.First"] = person.First, ["person.FullName"] = person.FullName, ["person.ItemCount"] = person.ItemCount,
            ["person.IsEmpty"] = person.IsEmpty, ["person.Initials"] = person.Initials, ["person.LetterCount"] = person.LetterCount,
            ["person.SumOfSquaresToAge"] = person.SumOfSquaresToAge, ["loner.IsAdult"] = loner.IsAdult,
            ["person.Greet(\"Hello\")"] = person.Greet("Hello"),
            ["circle.Kind"] = circle.Kind, ["circle.Describe"] = circle.Describe, ["square.Kind"] = square.Kind,
            ["square.Corners"] = square.Corners, ["square.Describe"] = square.Describe, ["rectangle.Corners"] = rectangle.Corners,
            ["named.Name"] = named.Name, ["employee.Level"] = employee.Level,
            ["employee.RankViaInterface"] = employee.RankViaInterface, ["Employee.RankOf(named)"] = Employee.RankOf(named),
            ["intBox.Value"] = intBox.Value, ["intBox.Text"] = intBox.Text, ["textBox.Value"] = textBox.Value,
            ["textBox.HasValue"] = textBox.HasValue, ["emptyBox.HasValue"] = emptyBox.HasValue,
            ["pair.Text"] = pair.Text, ["pair.SameText"] = pair.SameText,
            ["money.Currency"] = money.Currency, ["money.IsZero"] = money.IsZero, ["zero.IsZero"] = zero.IsZero,
            ["money.Display"] = money.Display, ["point.LengthSquared"] = point.LengthSquared, ["point.DoubledX"] = point.DoubledX,
            ["Settings.Level"] = Settings.Level, ["Settings.LevelSquared"] = Settings.LevelSquared, ["Settings.Mode"] = Settings.Mode,
            ["Settings.Gcd(84, 36)"] = Settings.Gcd(84, 36),
            ["ages.Count"] = ages.Count, ["numbers.Count"] = numbers.Count, ["unique.Count"] = unique.Count, ["queue.Count"] = queue.Count,
            ["when.Year"] = when.Year, ["when.Hour"] = when.Hour, ["when.DayOfYear"] = when.DayOfYear, ["span.Minutes"] = span.Minutes,
            ["maybe.HasValue"] = maybe.HasValue, ["nothing.HasValue"] = nothing.HasValue,
            ["string.IsNullOrEmpty(text)"] = string.IsNullOrEmpty(text), ["string.IsNullOrEmpty(empty)"] = string.IsNullOrEmpty(empty),
            ["text.Length"] = text.Length, ["builder.Length"] = builder.Length, ["version.Minor"] = version.Minor,
            ["pairOfBcl.Key"] = pairOfBcl.Key, ["ages.Values.Sum()"] = ages.Values.Sum(), ["text.ToUpperInvariant()"] = text.ToUpperInvariant(),
            ["text.IndexOf('w')"] = text.IndexOf('w'), ["text.Contains(\"world\")"] = text.Contains("world"),
            ["features.Method"] = features.Method, ["features.UserName"] = features.UserName,
            ["anonymous.UserName"] = anonymous.UserName, ["features.HasMissing"] = features.HasMissing,
            ["features.HeldKindIsUser"] = features.HeldKindIsUser, ["features.HeldKindIsRequest"] = features.HeldKindIsRequest,
            ["features.RequestIsFeature"] = features.RequestIsFeature,
            ["textSlot.Kind"] = textSlot.Kind, ["numberSlot.Kind"] = numberSlot.Kind, ["personSlot.Kind"] = personSlot.Kind,
            ["catalog.RegisteredNames"] = catalog.RegisteredNames, ["catalog.NamesEqual"] = catalog.NamesEqual,
            ["guarded.SafeTenth"] = guarded.SafeTenth, ["guarded.CaughtByBase"] = guarded.CaughtByBase,
            ["guarded.CaughtByFilter"] = guarded.CaughtByFilter,
            ["ages[\"bob\"]"] = ages["bob"], ["ages.ContainsKey(\"ann\")"] = ages.ContainsKey("ann"),
            ["ages.ContainsKey(\"zed\")"] = ages.ContainsKey("zed"),
            ["catalogue.Title"] = twin.Title, ["catalogue.Label.Text"] = twin.Label.Text,
            ["catalogue.StockKinds"] = twin.StockKinds, ["catalogue.SameLabelTwice"] = twin.SameLabelTwice,
            ["basket.Total"] = basket.Total, ["basket.BigLines"] = basket.BigLines, ["basket.AnyInk"] = basket.AnyInk,
            ["basket.CheapLines"] = basket.CheapLines, ["basket.NamedLines"] = basket.NamedLines,
            ["basket.Over(1)"] = basket.Over(1), ["basket.FirstBig"] = basket.FirstBig,
            ["basket.LineNames.Count()"] = basket.LineNames.Count(), ["basket.LineNames.Last()"] = basket.LineNames.Last(),
            ["threadReport.Current"] = threadReport.Current, ["PerThread.Describe"] = PerThread.Describe,
            ["names[2]"] = names[2], ["names.ContainsKey(3)"] = names.ContainsKey(3), ["names.ContainsKey(7)"] = names.ContainsKey(7),
        };
        // Values made by a getter (the debuggee holds none of them): shown as the adapter shows their type, with their fields.
        var made = new Dictionary<string, object>
        {
            ["when.Date"] = "{" + when.Date.ToString("yyyy-MM-ddTHH:mm:ss.fffffff", CultureInfo.InvariantCulture) + "}",
            ["when.TimeOfDay"] = "{" + when.TimeOfDay.ToString("c", CultureInfo.InvariantCulture) + "}",
            ["span.Duration()"] = "{" + span.Duration().ToString("c", CultureInfo.InvariantCulture) + "}",
            ["point.Doubled"] = new Dictionary<string, int> { ["X"] = point.Doubled.X, ["Y"] = point.Doubled.Y },
            ["person.Nickname"] = person.Nickname is null ? "null" : "not null",
            ["emptyBox.Value"] = emptyBox.Value is null ? "null" : "not null",
        };
        var truth = new Dictionary<string, object> { ["sideEffects"] = SideEffects.Count, ["values"] = values, ["made"] = made };
        File.WriteAllText(truthFile, JsonSerializer.Serialize(truth));
        Console.WriteLine("getters ready"); // @bp getters
        GC.KeepAlive(new object[] { person, loner, circle, square, rectangle, named, intBox, textBox, emptyBox, pair, money, zero,
            point, ages, numbers, unique, queue, when, span, maybe, nothing, text, empty, price, quantity, builder, version,
            pairOfBcl, tracker, thrower, spinner, features, anonymous, textSlot, numberSlot, personSlot, catalog, guarded, names, genericStatics, catalogue, basket, threadReport });
    }

    private static void Conditions(string truthFile)
    {
        Item[] items = Enumerable.Range(0, 40).Select(i => new Item(i)).ToArray();
        long sum = 0;
        for (int i = 0; i < items.Length; i++)
        {
            Item item = items[i];
            sum += item.Id; // @bp pure
            sum -= 1; // @bp counted
        }
        Entry?[] entries = Entry.Make(30);
        for (int i = 0; i < entries.Length; i++)
        {
            Entry? entry = entries[i];
            sum += i; // @bp dispatch
        }
        File.WriteAllText(truthFile, string.Create(CultureInfo.InvariantCulture, $"{SideEffects.Count} {sum} {DispatchEffects.Count}"));
    }
}
