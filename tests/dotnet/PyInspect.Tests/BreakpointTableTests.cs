// The breakpoint table and hit conditions, without a debuggee: what VS Code's re-sent sets
// keep, and which hits a hit condition lets stop.
using PyInspect.Debugger.Session;
using Xunit;

namespace PyInspect.Tests;

public sealed class BreakpointTableTests
{
    private static BreakpointRequest At(int line, string? hit = null) => new(line, null, hit, null);

    [Fact]
    public void A_breakpoint_sent_again_at_the_same_line_keeps_its_id_and_hit_count()
    {
        var table = new BreakpointTable();
        var first = table.Replace("/src/Program.cs", [At(10), At(20)], []);
        first[0].CountHit();
        var again = table.Replace("/src/Program.cs", [At(10, "2"), At(30)], []);
        Assert.Equal(first[0].Id, again[0].Id);
        Assert.Equal(1, again[0].HitCount);
        Assert.Equal("2", again[0].Request.HitCondition);
        Assert.NotEqual(first[1].Id, again[1].Id);
    }

    [Fact]
    public void Breakpoints_without_a_loaded_module_are_pending()
    {
        var table = new BreakpointTable();
        var created = table.Replace("/src/Program.cs", [At(10)], []);
        Assert.False(created[0].Verified);
        Assert.Equal(10, created[0].Line);
    }

    [Fact]
    public void Ids_are_unique_across_files()
    {
        var table = new BreakpointTable();
        var a = table.Replace("/src/A.cs", [At(1)], []);
        var b = table.Replace("/src/B.cs", [At(1)], []);
        Assert.NotEqual(a[0].Id, b[0].Id);
    }

    [Theory]
    [InlineData(null, 1, true)]
    [InlineData("3", 2, false)]
    [InlineData("3", 3, true)]
    [InlineData("== 3", 3, true)]
    [InlineData(">= 2", 1, false)]
    [InlineData(">= 2", 5, true)]
    [InlineData("> 2", 2, false)]
    [InlineData("< 2", 1, true)]
    [InlineData("<= 2", 3, false)]
    [InlineData("% 3", 6, true)]
    [InlineData("% 3", 7, false)]
    [InlineData("!= 1", 1, false)]
    public void A_hit_condition_decides_which_hits_stop(string? condition, int hits, bool stops) =>
        Assert.Equal(stops, SourceBreakpoint.HitConditionMet(condition, hits));

    [Theory]
    [InlineData("5", true)]
    [InlineData(" >= 10 ", true)]
    [InlineData("% 2", true)]
    [InlineData("often", false)]
    [InlineData("=> 3", false)]
    [InlineData(">=", false)]
    public void Only_well_formed_hit_conditions_are_accepted(string condition, bool valid) =>
        Assert.Equal(valid, SourceBreakpoint.IsValidHitCondition(condition));

    [Fact]
    public void A_condition_that_is_not_csharp_is_refused_when_set_with_roslyns_words()
    {
        var table = new BreakpointTable();
        var created = table.Replace("/src/Program.cs", [new BreakpointRequest(10, "i ==", null, null), new BreakpointRequest(11, "i == 1", null, null)], []);
        Assert.Equal("condition 'i ==' is not a C# expression: Expected expression", created[0].Code.Error);
        Assert.False(created[0].Verified);
        Assert.Null(created[1].Code.Error);
        Assert.Equal("i == 1", created[1].Code.Condition?.Text);
    }

    [Fact]
    public void A_log_message_is_split_once_and_formats_its_holes_and_braces()
    {
        var message = new PyInspect.Debugger.Evaluation.LogMessage("a={a} {{b}} bad={x ==} end");
        var seen = new List<string>();
        string text = message.Format(hole => { seen.Add(hole.Text); return hole.Text == "a" ? "one" : null; });
        Assert.Equal(["a"], seen);
        Assert.StartsWith("a=one {b} bad=<error: cannot evaluate 'x ==': unsupported syntax", text);
        Assert.EndsWith(" end", text);
    }
}
