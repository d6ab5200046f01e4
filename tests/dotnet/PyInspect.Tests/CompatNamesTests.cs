// The pure rules behind netcoredbg compatibility, without a debuggee: enum values named as
// Enum.ToString names them, breakpoint paths matched by their longest unique suffix, and
// function breakpoint names (FunctionName) matched against tests/targets/CompatSample's
// metadata (the program is only read).
using PyInspect.Debugger.Session;
using PyInspect.Debugger.Symbols;
using Xunit;

namespace PyInspect.Tests;

public sealed class CompatNamesTests
{
    private static readonly string Module = Path.Combine(Repository.Root, "tests", "targets", "_build", "CompatSample", "CompatSample.dll");

    [Theory]
    [InlineData(7L, "read | write | append")]
    [InlineData(5L, "read | append")]
    [InlineData(4L, "append")]
    [InlineData(0L, null)]
    [InlineData(9L, null)]
    public void Flags_are_named_by_value_whatever_the_declaration_order(long value, string? expected)
    {
        (string, long)[] declared = [("append", 4), ("write", 2), ("read", 1)];
        Assert.Equal(expected, EnumNames.Name(declared, value));
    }

    [Fact]
    public void A_combined_member_is_taken_before_the_flags_it_covers_as_enum_to_string_does()
    {
        (string, long)[] declared = [("Read", 1), ("Write", 2), ("ReadWrite", 3), ("Exec", 4)];
        Assert.Equal("ReadWrite | Exec", EnumNames.Name(declared, 7));
    }

    private static readonly string[] Documents = ["/src/App/Program.cs", "/src/App/Nested/Program.cs", "/src/Lib/Util.cs"];

    [Theory]
    [InlineData("./App/folder/../Program.cs", "/src/App/Program.cs")]
    [InlineData("App/Nested/./Program.cs", "/src/App/Nested/Program.cs")]
    [InlineData("Util.cs", "/src/Lib/Util.cs")]
    [InlineData("/src/App/../App/Program.cs", "/src/App/Program.cs")]
    public void A_path_means_the_document_with_the_longest_shared_suffix(string asked, string expected)
    {
        var match = DocumentMatch.Find(asked, Documents);
        Assert.Equal(expected, match.Document);
        Assert.Empty(match.Ambiguous);
    }

    [Fact]
    public void A_file_name_two_documents_share_is_ambiguous_and_names_both()
    {
        var match = DocumentMatch.Find("Program.cs", Documents);
        Assert.Null(match.Document);
        Assert.Equal(["/src/App/Nested/Program.cs", "/src/App/Program.cs"], match.Ambiguous);
    }

    [Fact]
    public void An_absolute_path_elsewhere_is_another_file() =>
        Assert.Null(DocumentMatch.Find("/elsewhere/Program.cs", Documents).Document);

    [Theory]
    [InlineData("Compute", 3)]
    [InlineData("Compute()", 1)]
    [InlineData("Compute(int)", 1)]
    [InlineData("Program.Compute(System.Int32, string)", 1)]
    [InlineData("CompatSample.Program.Compute(Int32,String)", 1)]
    [InlineData("Compute(long)", 0)]
    [InlineData("Echo<T>", 1)]
    [InlineData("Echo(T)", 1)]
    [InlineData("Outer.Inner.Deep", 1)]
    [InlineData("Outer+Inner.Deep(int)", 1)]
    [InlineData("Inner.Deep", 1)]
    [InlineData("Other.Deep", 0)]
    [InlineData("WordCount(string)", 1)]
    public void A_function_name_matches_the_methods_it_means(string name, int methods)
    {
        var parsed = FunctionName.TryParse(name, out string why);
        Assert.True(parsed is not null, why);
        Assert.Equal(methods, parsed.Match(ModuleMetadata.Open(Module)).Count());
    }

    [Theory]
    [InlineData("Compute(int")]
    [InlineData("1abc")]
    [InlineData("Program.")]
    [InlineData("Compute(int,)")]
    [InlineData("")]
    public void What_is_not_a_function_name_is_refused_with_the_reason(string name)
    {
        Assert.Null(FunctionName.TryParse(name, out string why));
        Assert.Contains("is not a function name", why);
    }
}
