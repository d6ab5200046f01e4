// The symbol layer (portable PDB and metadata) against a real compiled program,
// tests/targets/SymbolsSample, whose lines are marked `// @bp name`: what a breakpoint at
// a line binds to, the locals in scope, step ranges, display names and the metadata view of
// its types. No debuggee runs; the program is only read.
using System.Reflection.Metadata.Ecma335;
using System.Text.RegularExpressions;
using PyInspect.Debugger.Symbols;
using Xunit;

namespace PyInspect.Tests;

public sealed class SymbolsSampleTests : IDisposable
{
    private static readonly string Root = Repository.Root;
    private static readonly string Source = Path.Combine(Root, "tests", "targets", "SymbolsSample", "Program.cs");
    private static readonly string Module = Path.Combine(Root, "tests", "targets", "_build", "SymbolsSample", "SymbolsSample.dll");
    private readonly ModuleSymbols _symbols = ModuleSymbols.TryLoad(Module)
        ?? throw new InvalidOperationException($"no portable PDB beside {Module}: build the test targets first (python3 build.py)");
    private readonly ModuleMetadata _metadata = ModuleMetadata.Open(Module);

    public void Dispose() => _symbols.Dispose();

    private static int Marker(string name)
    {
        var pattern = new Regex($@"//\s*@bp\s+{Regex.Escape(name)}\b");
        string[] lines = File.ReadAllLines(Source);
        for (int i = 0; i < lines.Length; i++)
            if (pattern.IsMatch(lines[i])) return i + 1;
        throw new InvalidOperationException($"marker @bp {name} not found in {Source}");
    }

    private ResolvedLine BoundAt(string marker) => Assert.Single(_symbols.ResolveLine(Source, Marker(marker)));

    private Dictionary<string, int> Locals(ResolvedLine bound) =>
        _symbols.GetLocals(bound.MethodToken, bound.IlOffset).ToDictionary(l => l.Name, l => l.SlotIndex);

    [Fact]
    public void A_line_with_code_binds_to_its_own_line_in_main()
    {
        var bound = BoundAt("after_blank");
        Assert.Equal("Samples.Symbols.Program.Main", _metadata.GetMethodDisplayName(bound.MethodToken));
        Assert.Equal(Marker("after_blank"), bound.Line);
        Assert.True(_metadata.IsStatic(bound.MethodToken));
        Assert.Equal(["args"], _metadata.GetParameterNames(bound.MethodToken));
        Assert.True(_symbols.HasSource(bound.MethodToken));
    }

    [Fact]
    public void A_line_without_code_binds_to_the_nearest_following_line()
    {
        var bound = BoundAt("before_code");
        Assert.Equal(Marker("after_blank"), bound.Line);
        Assert.Equal(bound.Line, _symbols.GetSourceSpan(bound.MethodToken, bound.IlOffset)?.Line);
    }

    [Fact]
    public void A_line_past_the_last_code_binds_nowhere() =>
        Assert.Empty(_symbols.ResolveLine(Source, File.ReadAllLines(Source).Length + 5));

    [Fact]
    public void A_bare_file_name_matches_the_unique_document()
    {
        Assert.Equal([Marker("last")], _symbols.ResolveLine("Program.cs", Marker("last")).Select(b => b.Line));
        Assert.Equal([Source], _symbols.SourceFiles);
    }

    [Fact]
    public void An_unknown_file_binds_nowhere() => Assert.Empty(_symbols.ResolveLine("/nowhere/Other.cs", 1));

    [Fact]
    public void Locals_in_scope_include_loop_variables_only_inside_the_loop()
    {
        var inside = Locals(BoundAt("loop_body"));
        var outside = Locals(BoundAt("after_blank"));
        Assert.Superset(new HashSet<string> { "total", "i", "squared" }, inside.Keys.ToHashSet());
        Assert.Equal(inside.Count, inside.Values.Distinct().Count());
        Assert.DoesNotContain("squared", outside.Keys);
        Assert.DoesNotContain("i", outside.Keys);
        Assert.Contains("total", outside.Keys);
    }

    [Theory]
    [InlineData("after_blank")]
    [InlineData("loop_body")]
    [InlineData("last")]
    public void The_step_range_starts_at_the_bound_offset_and_is_not_empty(string marker)
    {
        var bound = BoundAt(marker);
        var range = Assert.Single(_symbols.GetStepRanges(bound.MethodToken, bound.IlOffset));
        Assert.Equal(bound.IlOffset, range.Start);
        Assert.True(range.End > range.Start);
    }

    [Fact]
    public void Nested_and_generic_methods_have_display_names_without_arity()
    {
        var nested = BoundAt("nested");
        Assert.Equal("Samples.Symbols.Dog.Collar.Describe", _metadata.GetMethodDisplayName(nested.MethodToken));
        Assert.Equal(["size"], _metadata.GetParameterNames(nested.MethodToken));
        Assert.False(_metadata.IsStatic(nested.MethodToken));
        Assert.Equal(["text"], _symbols.GetLocals(nested.MethodToken, nested.IlOffset).Select(l => l.Name));
        var generic = BoundAt("generic");
        Assert.Equal("Samples.Symbols.Box.First", _metadata.GetMethodDisplayName(generic.MethodToken));
        Assert.Equal(["fallback"], _metadata.GetParameterNames(generic.MethodToken));
    }

    private int Type(string fullName) => _metadata.FindType(fullName) ?? throw new InvalidOperationException($"no type {fullName}");

    private string? BaseName(string fullName) =>
        _metadata.GetBaseType(Type(fullName)) is { } b ? b.ExternalTypeName ?? _metadata.GetTypeName(b.Token) : null;

    [Fact]
    public void Type_metadata_names_fields_properties_and_base_types()
    {
        var fields = _metadata.GetFields(Type("Samples.Symbols.Animal"));
        Assert.Equal(["Name", "legs", "MaxLegs", "Count"], fields.Select(f => f.DisplayName));
        Assert.Equal("<Name>k__BackingField", fields[0].Name);
        Assert.True(fields[2].IsLiteral);
        Assert.True(fields[3].IsStatic);
        Assert.Equal("System.Object", BaseName("Samples.Symbols.Animal"));
        Assert.Equal("Samples.Symbols.Animal", BaseName("Samples.Symbols.Dog"));
        var barks = Assert.Single(_metadata.GetProperties(Type("Samples.Symbols.Dog")));
        Assert.Equal(("Barks", true, false), (barks.Name, barks.GetterToken != 0, barks.IsStatic));
        Assert.Equal("System.Collections.Generic.List`1", BaseName("Samples.Symbols.Box`1"));
        Assert.NotNull(_metadata.FindType("Samples.Symbols.Dog.Collar"));
    }

    [Fact]
    public void The_evaluator_and_the_frames_read_one_metadata_per_module()
    {
        Assert.Same(_metadata, ModuleMetadata.TryOpen(Module));
        Assert.Same(_metadata, ModuleMetadata.Open(Path.Combine(Path.GetDirectoryName(Module)!, ".", "SymbolsSample.dll")));
        Assert.Null(ModuleMetadata.TryOpen("/nonexistent/Missing.dll"));
        Assert.Equal(Type("Samples.Symbols.Box`1"), _metadata.FindType("Samples.Symbols.Box"));  // arity optional
    }
}
