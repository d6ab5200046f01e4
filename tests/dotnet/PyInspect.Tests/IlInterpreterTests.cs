// The IL interpreter's decoder and stack machine on real compiled C# (methods of this test
// assembly), with no debuggee: the answer of each method run by the interpreter equals the
// answer of the method run by .NET; what must be refused is, with its reason; the budget
// stops a loop; thrown exceptions come back as the exception .NET throws.
using System.Reflection;
using System.Reflection.Emit;
using PyInspect.Debugger.Evaluation.Core;
using PyInspect.Debugger.Evaluation.Getters;
using PyInspect.Debugger.Evaluation.IL.Machine;
using PyInspect.Debugger.Evaluation.IL.Metadata;
using PyInspect.Debugger.Frames;
using Xunit;

namespace PyInspect.Tests;

public static class IlSamples
{
    public static int Counter;

    public static int Arithmetic(int a, int b) => (a * 3 + b) / 2 - (a % 5) + (b << 2) - (a ^ b);
    public static long Wide(long a, int b) => a * b + (a >> 3) - b;
    public static double Floating(double x) => x / 3 + Math.Sqrt(x) - (float)x;
    public static bool Compare(int a, uint b) => a > 3 && b > 5u || a == -1;

    public static int Loop(int n)
    {
        int sum = 0;
        for (int i = 0; i < n; i++) sum += i % 3 == 0 ? i : -1;
        return sum;
    }

    public static int Switch(int n) => n switch { 0 => 10, 1 => 11, 2 => 12, 3 => 13, _ => -1 };
    public static int Checked(int a) => checked(a + 1);
    public static int Divide(int a, int b) => a / b;
    public static string Concat(string first, string last) => first + " " + last;
    public static string Interpolated(int id, DayOfWeek day) => $"#{id}:{day}";
    public static bool Empty(string? text) => string.IsNullOrEmpty(text);
    public static int Chars(string text) => text.Length + text[0];

    public struct Point(int x, int y)
    {
        public int X = x;
        public int Y = y;
        public readonly int Sum => X + Y;
    }

    public static int StructLocal(int x) => new Point(x, 2 * x).Sum;

    public static int ArraySum(int n)
    {
        var items = new int[n];
        for (int i = 0; i < n; i++) items[i] = i * i;
        int sum = 0;
        foreach (int item in items) sum += item;
        return sum;
    }

    public static int Index(int i) => new[] { 1, 2, 3 }[i];

    public abstract class Shape { public abstract int Area { get; } public virtual string Name => "shape"; }
    public sealed class Square(int side) : Shape { public override int Area => side * side; public override string Name => "square"; }
    public static int Virtual(int side) => new Square(side).Area + ((Shape)new Square(1)).Name.Length;

    public static object Boxed(int x) => x;
    public static int Unboxed(int x) => (int)Boxed(x) + 1;
    public static bool IsString(object o) => o is string;

    public static int? MaybeNull(int x) => x > 0 ? x : null;
    public static int NullableValue(int x) => MaybeNull(x)!.Value;
    public static string Throws(string why) => throw new InvalidOperationException(why);

    public static int WithFinally(int x)
    {
        int result = x;
        try { result += 1; }
        finally { result *= 2; }
        return result;
    }

    public static bool IsText(int which) => (which == 0 ? "text" : (object)which).GetType() == typeof(string);
    public static string TypeKind(int which) => which switch { 0 => Kind<string>(), 1 => Kind<int>(), _ => Kind<Version>() };
    private static string Kind<T>() => typeof(T) == typeof(string) ? "text" : typeof(T).IsValueType ? "value" : "reference";
    public static bool SameHandle() => typeof(int).TypeHandle.Equals(typeof(int).TypeHandle) && !typeof(int).Equals(typeof(long));
    public static int HashOfType() => typeof(string).GetHashCode();

    public static int CatchIndex(int i)
    {
        try { return new[] { 1, 2, 3 }[i]; }
        catch (IndexOutOfRangeException) { return -1; }
    }

    public static string CatchByBase(string why)
    {
        try { throw new InvalidOperationException(why); }
        catch (SystemException e) { return "caught " + e.Message; }
    }

    public static int Filtered(int d)
    {
        try { return 10 / d; }
        catch (Exception e) when (e is DivideByZeroException) { return -3; }
    }

    public static int Unmatched(int i)
    {
        try { return new[] { 1 }[i]; }
        catch (DivideByZeroException) { return -2; }
    }

    public static int Rethrown(int i)
    {
        try { return new[] { 1 }[i]; }
        catch (IndexOutOfRangeException) { throw; }
    }

    public static int FinallyThenCatch(int i)
    {
        int result = 0;
        try
        {
            try { result = new[] { 1 }[i]; }
            finally { result += 10; }
        }
        catch (IndexOutOfRangeException) { result += 100; }
        return result;
    }

    public static int ThrowsInFinally(int i)
    {
        try
        {
            try { return i; }
            finally { _ = new[] { 1 }[i]; }
        }
        catch (IndexOutOfRangeException) { return -1; }
    }

    public static int Reset() { Counter = 7; return 0; }

    public static int Locks(object gate)
    {
        lock (gate) return 1;
    }

    public interface IOut<out T>;
    public interface IIn<in T>;
    public interface IExact<T>;
    public sealed class Variant : IOut<string>, IIn<object>, IExact<string>;
    public sealed class Numbers : IOut<int>, IIn<int>;

    /// <summary>One bit per cast the runtime answers by its variance rules.</summary>
    public static int VarianceBits()
    {
        object variant = new Variant(), numbers = new Numbers();
        return (variant is IOut<object> ? 1 : 0) | (variant is IOut<IComparable> ? 2 : 0) | (variant is IIn<string> ? 4 : 0)
            | (variant is IExact<object> ? 8 : 0) | (numbers is IOut<object> ? 16 : 0) | (numbers is IIn<object> ? 32 : 0)
            | (variant is IOut<int> ? 64 : 0) | (variant is IIn<Variant> ? 128 : 0);
    }

    public static Point Doubled(int x) => new(2 * x, 4 * x);
    public static DateTime DayOf(long ticks) => new DateTime(ticks).Date;
    public static string? NoName(int x) => x > 100 ? "big" : null;

    public static int Closure(int n)
    {
        int k = n;  // captured: a closure object the interpreter makes
        Func<int, int> add = x => x + k;
        return add(1) * 100 + Apply(add, 2);
    }

    private static int Apply(Func<int, int> f, int x) => f(x);

    public sealed class Scaler(int k)
    {
        public int Times(int x) => k * x;
    }

    public static int MethodGroup(int n)
    {
        Func<int, int> times = new Scaler(n).Times;
        return times(3);
    }

    public class Animal { public virtual string Sound() => "..."; }
    public sealed class Dog : Animal { public override string Sound() => "woof"; }

    public static string VirtualGroup()
    {
        Animal animal = new Dog();
        Func<string> sound = animal.Sound;  // ldvirtftn: dispatched on the Dog when the delegate is made
        return sound();
    }

    public static int SpanSum(int n)
    {
        var items = new int[n];
        for (int i = 0; i < n; i++) items[i] = i * 3;
        int sum = 0;
        foreach (int item in items.AsSpan(1)) sum += item;
        ReadOnlySpan<int> view = items;
        return sum * 1000 + view[^1] + view.Slice(2, 2)[1];
    }

    public sealed class OneTwoThree : IEnumerable<int>
    {
        public IEnumerator<int> GetEnumerator()
        {
            yield return 1;
            yield return 2;
            yield return 3;
        }

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
    }

    /// <summary>An iterator whose foreach sits in a try/fault: every MoveNext leaves the try at its `yield return`.
    /// (An IEnumerator one: an IEnumerable iterator's GetEnumerator asks the thread id, which needs a debuggee.)</summary>
    public static IEnumerator<int> TwiceEach(OneTwoThree items)
    {
        foreach (int item in items) yield return item * 2;
    }

    public static int IteratorSum()
    {
        int sum = 0;
        using IEnumerator<int> twice = TwiceEach(new OneTwoThree());
        while (twice.MoveNext()) sum = sum * 100 + twice.Current;
        return sum;
    }

    public static int Forever()
    {
        int i = 0;
        while (i >= 0) i = (i + 1) & 0xFFFF;
        return i;
    }
}

public sealed class IlInterpreterTests
{
    private static readonly string SelfPath = typeof(IlSamples).Assembly.Location;

    private static (IlMachine Machine, IlResolver Resolver) NewMachine(long budget = 1_000_000)
    {
        var modules = new ModuleCatalog();
        // The interpreter resolves type references through loaded modules: this assembly, CoreLib and the facades.
        string runtime = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
        foreach (string path in new[] { SelfPath, typeof(object).Assembly.Location, Path.Combine(runtime, "System.Runtime.dll"),
                     Path.Combine(runtime, "System.Threading.dll"), Path.Combine(runtime, "System.Memory.dll") })
            modules.Add(null!, path);
        var resolver = new IlResolver(modules);
        var context = new EvalContext(null!, modules, null, null) { CallsRefused = true };
        return (new IlMachine(context, resolver, budget), resolver);
    }

    private static object? Run(string name, params object?[] args) => Run(NewMachine().Machine, name, args);

    private static object? Run(IlMachine machine, string name, params object?[] args)
    {
        MethodInfo info = typeof(IlSamples).GetMethod(name)!;
        var owner = (IlNamed)machine.Resolver.Named(SelfPath, typeof(IlSamples).MetadataToken, []);
        IlMethod method = machine.Resolver.Method(owner, info.MetadataToken, []);
        object? result = machine.Run(method, [.. args.Select(a => a is Enum e ? Convert.ToInt32(e) : IlValue.ToStack(a))]);
        return method.ReturnType is IlPrimitive { IsValueType: true } ? IlValue.ToClr(result, method.ReturnType) : result;
    }

    private static void SameAsDotNet(string name, params object?[] args) =>
        Assert.Equal(typeof(IlSamples).GetMethod(name)!.Invoke(null, args), Run(name, args));

    [Fact]
    public void The_decoder_reads_every_instruction_with_its_operand_and_branch_targets()
    {
        byte[] il = typeof(IlSamples).GetMethod(nameof(IlSamples.Switch))!.GetMethodBody()!.GetILAsByteArray()!;
        IlCode code = IlCode.Decode(il);
        Assert.Equal(il.Length, code.Instructions[^1].Offset + code.Instructions[^1].OpCode.Size
            + (code.Instructions[^1].Operand is null ? 0 : 4));
        IlInstruction sw = code.Instructions.Single(i => i.OpCode == OpCodes.Switch);
        foreach (int target in (int[])sw.Operand!) Assert.InRange(code.IndexOf(target), 0, code.Instructions.Count - 1);
        Assert.Throws<InvalidProgramException>(() => IlCode.Decode([0x24]));  // an opcode that does not exist
    }

    [Fact]
    public void The_decoder_reads_short_and_long_forms_alike()
    {
        // ldc.i4.s -3; ldc.i4 300; add; ret
        IlCode code = IlCode.Decode([0x1F, 0xFD, 0x20, 0x2C, 0x01, 0x00, 0x00, 0x58, 0x2A]);
        Assert.Equal([-3, 300], code.Instructions.Take(2).Select(i => (int)i.Operand!));
        Assert.Equal(OpCodes.Ret, code.Instructions[^1].OpCode);
    }

    [Fact]
    public void Arithmetic_comparisons_and_conversions_answer_what_dotnet_answers()
    {
        SameAsDotNet(nameof(IlSamples.Arithmetic), 17, -4);
        SameAsDotNet(nameof(IlSamples.Arithmetic), int.MaxValue, 3);
        SameAsDotNet(nameof(IlSamples.Wide), long.MaxValue / 7, 9);
        SameAsDotNet(nameof(IlSamples.Floating), 10.5);
        SameAsDotNet(nameof(IlSamples.Compare), 4, 6u);
        SameAsDotNet(nameof(IlSamples.Compare), -1, 0u);
        SameAsDotNet(nameof(IlSamples.Loop), 100);
        for (int n = -1; n < 5; n++) SameAsDotNet(nameof(IlSamples.Switch), n);
    }

    [Fact]
    public void Strings_structs_arrays_boxes_and_virtual_calls_answer_what_dotnet_answers()
    {
        SameAsDotNet(nameof(IlSamples.Concat), "Ada", "Lovelace");
        SameAsDotNet(nameof(IlSamples.Empty), "");
        SameAsDotNet(nameof(IlSamples.Empty), "x");
        SameAsDotNet(nameof(IlSamples.Chars), "A!");
        SameAsDotNet(nameof(IlSamples.StructLocal), 7);
        SameAsDotNet(nameof(IlSamples.ArraySum), 20);
        SameAsDotNet(nameof(IlSamples.Virtual), 6);
        SameAsDotNet(nameof(IlSamples.Unboxed), 41);
        SameAsDotNet(nameof(IlSamples.NullableValue), 5);
        SameAsDotNet(nameof(IlSamples.WithFinally), 3);
        SameAsDotNet(nameof(IlSamples.Interpolated), 7, DayOfWeek.Friday);
        Assert.Equal(true, Run(nameof(IlSamples.IsString), "text"));
    }

    [Fact]
    public void Exceptions_come_back_as_the_exception_dotnet_throws()
    {
        Assert.Equal("System.OverflowException", Assert.Throws<IlThrown>(() => Run(nameof(IlSamples.Checked), int.MaxValue)).TypeName);
        Assert.Equal("System.DivideByZeroException", Assert.Throws<IlThrown>(() => Run(nameof(IlSamples.Divide), 1, 0)).TypeName);
        var index = Assert.Throws<IlThrown>(() => Run(nameof(IlSamples.Index), 3));
        Assert.Equal(("System.IndexOutOfRangeException", "Index was outside the bounds of the array."), (index.TypeName, index.Message));
        var thrown = Assert.Throws<IlThrown>(() => Run(nameof(IlSamples.Throws), "not today"));
        Assert.Equal(("System.InvalidOperationException", "not today"), (thrown.TypeName, thrown.Message));
        var noValue = Assert.Throws<IlThrown>(() => Run(nameof(IlSamples.NullableValue), -5));
        Assert.Equal("System.InvalidOperationException", noValue.TypeName);
        Assert.Equal(new InvalidOperationException(Nullable()).Message, noValue.Message);
    }

    [Fact]
    public void Typeof_compares_types_without_the_runtimes_Type_objects()
    {
        SameAsDotNet(nameof(IlSamples.IsText), 0);
        SameAsDotNet(nameof(IlSamples.IsText), 5);
        SameAsDotNet(nameof(IlSamples.TypeKind), 0);
        SameAsDotNet(nameof(IlSamples.TypeKind), 1);
        SameAsDotNet(nameof(IlSamples.TypeKind), 2);
        SameAsDotNet(nameof(IlSamples.SameHandle));
        Assert.Contains("needs the debuggee's Type object", Assert.Throws<IlRefusal>(() => Run(nameof(IlSamples.HashOfType))).Reason);
    }

    [Fact]
    public void Catch_handlers_take_the_exceptions_they_name_and_let_the_others_out()
    {
        SameAsDotNet(nameof(IlSamples.CatchIndex), 1);
        SameAsDotNet(nameof(IlSamples.CatchIndex), 7);
        SameAsDotNet(nameof(IlSamples.CatchByBase), "not today");
        SameAsDotNet(nameof(IlSamples.Filtered), 0);
        SameAsDotNet(nameof(IlSamples.Filtered), 5);
        SameAsDotNet(nameof(IlSamples.FinallyThenCatch), 0);
        SameAsDotNet(nameof(IlSamples.FinallyThenCatch), 3);
        Assert.Equal("System.IndexOutOfRangeException", Assert.Throws<IlThrown>(() => Run(nameof(IlSamples.Unmatched), 4)).TypeName);
        Assert.Equal("System.IndexOutOfRangeException", Assert.Throws<IlThrown>(() => Run(nameof(IlSamples.Rethrown), 4)).TypeName);
        SameAsDotNet(nameof(IlSamples.ThrowsInFinally), 0);
        Assert.Equal("throws System.IndexOutOfRangeException from a finally block",
            Assert.Throws<IlRefusal>(() => Run(nameof(IlSamples.ThrowsInFinally), 3)).Reason);
    }

    [Fact]
    public void Delegates_the_code_makes_run_their_method_with_their_target()
    {
        SameAsDotNet(nameof(IlSamples.Closure), 5);
        SameAsDotNet(nameof(IlSamples.MethodGroup), 7);
        SameAsDotNet(nameof(IlSamples.VirtualGroup));
        SameAsDotNet(nameof(IlSamples.SpanSum), 6);
        SameAsDotNet(nameof(IlSamples.IteratorSum));
    }

    private static string Nullable()
    {
        try { return ((int?)null).Value.ToString(); }
        catch (InvalidOperationException e) { return e.Message; }
    }

    [Fact]
    public void Side_effects_locks_and_runaway_loops_are_refused_with_their_reason()
    {
        var reset = Assert.Throws<IlRefusal>(() => Run(nameof(IlSamples.Reset)));
        Assert.Equal("stores into static field PyInspect.Tests.IlSamples.Counter", reset.Reason);
        Assert.Equal("PyInspect.Tests.IlSamples.Reset", reset.Method);
        Assert.Equal(0, IlSamples.Counter);
        Assert.Contains("takes a lock", Assert.Throws<IlRefusal>(() => Run(nameof(IlSamples.Locks), "gate")).Reason);
        var (machine, _) = NewMachine(budget: 5_000);
        var runaway = Assert.Throws<IlRefusal>(() => Run(machine, nameof(IlSamples.Forever)));
        Assert.Equal("ran past the budget of 5000 IL instructions", runaway.Reason);
        Assert.Equal(5_001, machine.Executed);
    }
}

public sealed class IlMadeValueTests
{
    private static readonly string SelfPath = typeof(IlSamples).Assembly.Location;

    private static (IlMachine Machine, IlMethod Method) Prepare(string name)
    {
        var modules = new ModuleCatalog();
        string runtime = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
        foreach (string path in new[] { SelfPath, typeof(object).Assembly.Location, Path.Combine(runtime, "System.Runtime.dll") })
            modules.Add(null!, path);
        var resolver = new IlResolver(modules);
        var machine = new IlMachine(new EvalContext(null!, modules, null, null) { CallsRefused = true }, resolver, 1_000_000);
        var owner = (IlNamed)resolver.Named(SelfPath, typeof(IlSamples).MetadataToken, []);
        return (machine, resolver.Method(owner, typeof(IlSamples).GetMethod(name)!.MetadataToken, []));
    }

    /// <summary>The interpreted answer as the evaluator receives it.</summary>
    private static object? Answer(string name, params object?[] args)
    {
        var (machine, method) = Prepare(name);
        return IlResults.ToEvaluator(machine, machine.Run(method, [.. args.Select(IlValue.ToStack)]), method.ReturnType);
    }

    [Fact]
    public void Casts_to_generic_interfaces_follow_the_runtimes_variance_rules()
    {
        Assert.Equal(1 | 2 | 4 | 128, IlSamples.VarianceBits());  // the runtime's own answer, so the check below can fail
        var (machine, method) = Prepare(nameof(IlSamples.VarianceBits));
        Assert.Equal(IlSamples.VarianceBits(), machine.Run(method, []));
    }

    [Fact]
    public void A_struct_the_interpreter_made_is_answered_with_its_fields_and_type()
    {
        var made = Assert.IsType<MadeValue>(Answer(nameof(IlSamples.Doubled), 3));
        Assert.StartsWith("PyInspect.Tests.IlSamples", made.TypeName);
        Assert.EndsWith("Point", made.TypeName);
        Assert.Equal($"{{{made.TypeName}}}", made.Text);
        Assert.True(made.ShowsFields);
        Assert.Equal([new("X", 6), new KeyValuePair<string, object?>("Y", 12)], made.Fields);
    }

    [Fact]
    public void A_DateTime_the_interpreter_made_is_shown_by_its_value_as_a_debuggee_one_is()
    {
        long ticks = new DateTime(2026, 11, 26, 16, 30, 15).Ticks;
        var made = Assert.IsType<MadeValue>(Answer(nameof(IlSamples.DayOf), ticks));
        Assert.Equal("System.DateTime", made.TypeName);
        Assert.Equal("{" + IlSamples.DayOf(ticks).ToString("yyyy-MM-ddTHH:mm:ss.fffffff", System.Globalization.CultureInfo.InvariantCulture) + "}", made.Text);
        Assert.False(made.ShowsFields);
    }

    [Fact]
    public void A_null_is_answered_with_the_type_its_method_declares()
    {
        Assert.Equal(new NullOf("string"), Answer(nameof(IlSamples.NoName), 5));
        Assert.Equal("big", Answer(nameof(IlSamples.NoName), 500));
    }
}

public sealed class IlInterpreterBclTests
{
    [Fact]
    public void DateTime_getters_run_from_CoreLibs_own_IL()
    {
        var modules = new ModuleCatalog();
        string corelib = typeof(object).Assembly.Location;
        modules.Add(null!, corelib);
        var resolver = new IlResolver(modules);
        var machine = new IlMachine(new EvalContext(null!, modules, null, null) { CallsRefused = true }, resolver, 1_000_000);
        var when = new DateTime(2026, 3, 4, 5, 6, 7, DateTimeKind.Utc);
        var type = (IlNamed)resolver.Named(corelib, typeof(DateTime).MetadataToken, []);
        var value = new LocalObject(type);
        value.Fields["_dateData"] = (long)(ulong)typeof(DateTime).GetField("_dateData", BindingFlags.NonPublic | BindingFlags.Instance)!.GetValue(when)!;
        object? Get(string property) =>
            machine.Run(resolver.Method(type, typeof(DateTime).GetProperty(property)!.GetMethod!.MetadataToken, []), [new SlotRef([value], 0)]);
        Assert.Equal(2026, Get("Year"));
        Assert.Equal(3, Get("Month"));
        Assert.Equal(7, Get("Second"));
        Assert.Equal((int)DateTimeKind.Utc, Get("Kind"));
    }
}

public sealed class IlArithmeticTests
{
    [Fact]
    public void Conversions_keep_the_stack_types()
    {
        Assert.Equal(5, IlArithmetic.Convert(OpCodes.Conv_U4, 5L));
        Assert.Equal(-1, IlArithmetic.Convert(OpCodes.Conv_U4, -1L));
        Assert.Equal(4294967295L, IlArithmetic.Convert(OpCodes.Conv_U8, -1));
        Assert.Equal(-1L, IlArithmetic.Convert(OpCodes.Conv_I8, -1));
        Assert.Equal(255, IlArithmetic.Convert(OpCodes.Conv_U1, 511L));
        Assert.Equal(3.0, IlArithmetic.Convert(OpCodes.Conv_R8, 3));
        Assert.Equal(~5, IlArithmetic.Unary("not", 5));    // an int stays an int (DateTime.Kind's `~` was once a double)
        Assert.Equal(-5L, IlArithmetic.Unary("neg", 5L));
    }
}

