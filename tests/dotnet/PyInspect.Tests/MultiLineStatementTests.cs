// Where a breakpoint on a line of a multi-line statement binds, read from a real compiled
// program (tests/targets/CompatSample/Statements.cs, lines marked `// @bp name`) without
// running it: a continuation line binds to its statement's first line, a line between
// statements to the next one, a query clause's or lambda's line to the lambda.
using System.Text.RegularExpressions;
using PyInspect.Debugger.Symbols;
using Xunit;

namespace PyInspect.Tests;

public sealed class MultiLineStatementTests : IDisposable
{
    private static readonly string Source = Path.Combine(Repository.Root, "tests", "targets", "CompatSample", "Statements.cs");
    private static readonly string Module = Path.Combine(Repository.Root, "tests", "targets", "_build", "CompatSample", "CompatSample.dll");
    private readonly ModuleSymbols _symbols = ModuleSymbols.TryLoad(Module)
        ?? throw new InvalidOperationException($"no portable PDB beside {Module}: build the test targets first (python3 build.py)");

    public void Dispose() => _symbols.Dispose();

    private static int Marker(string name)
    {
        var pattern = new Regex($@"//\s*@bp\s+{Regex.Escape(name)}\b");
        int index = Array.FindIndex(File.ReadAllLines(Source), pattern.IsMatch);
        return index >= 0 ? index + 1 : throw new InvalidOperationException($"marker @bp {name} not found in {Source}");
    }

    [Theory]
    [InlineData("chain_append", "chain_start")]
    [InlineData("chain_end", "chain_start")]
    [InlineData("args_first", "args_start")]
    [InlineData("args_end", "args_start")]
    [InlineData("init_x", "init_start")]
    [InlineData("init_name", "init_start")]
    [InlineData("query_end", "query_start")]
    [InlineData("between", "init_start")]
    [InlineData("lambda_between", "lambda_return")]
    [InlineData("query_where", "query_where")]
    public void A_line_binds_to_the_statement_it_belongs_to(string marker, string statement)
    {
        var bound = Assert.Single(_symbols.ResolveLine(Source, Marker(marker)));
        Assert.Equal(Marker(statement), bound.Line);
    }
}
