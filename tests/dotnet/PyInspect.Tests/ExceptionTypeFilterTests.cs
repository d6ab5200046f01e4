using PyInspect.Debugger.Session;
using Xunit;

namespace PyInspect.Tests;

public sealed class ExceptionTypeFilterTests
{
    [Fact]
    public void No_condition_matches_every_type() =>
        Assert.True(ExceptionTypeFilter.Parse(null).Matches("System.Exception"));

    [Fact]
    public void Listed_types_are_the_only_ones_matched()
    {
        var filter = ExceptionTypeFilter.Parse("System.InvalidOperationException, System.ArgumentException");
        Assert.True(filter.Matches("System.ArgumentException"));
        Assert.False(filter.Matches("System.Exception"));
    }

    [Fact]
    public void An_exclamation_mark_excludes_a_type_from_all_others()
    {
        var filter = ExceptionTypeFilter.Parse("!System.OperationCanceledException");
        Assert.False(filter.Matches("System.OperationCanceledException"));
        Assert.True(filter.Matches("System.InvalidOperationException"));
    }

    [Theory]
    [InlineData("!System.NullReferenceException System.ArgumentNullException")]
    [InlineData("!System.NullReferenceException, System.ArgumentNullException")]
    [InlineData(" ! System.NullReferenceException,System.ArgumentNullException ")]
    [InlineData("!System.NullReferenceException, !System.ArgumentNullException")]
    public void A_leading_exclamation_mark_negates_the_whole_list(string condition)
    {
        var filter = ExceptionTypeFilter.Parse(condition);
        Assert.False(filter.Matches("System.NullReferenceException"));
        Assert.False(filter.Matches("System.ArgumentNullException"));
        Assert.True(filter.Matches("System.InvalidOperationException"));
    }

    [Fact]
    public void Spaces_separate_types_as_commas_do()
    {
        var filter = ExceptionTypeFilter.Parse("System.InvalidOperationException  System.ArgumentException\tSystem.TimeoutException");
        Assert.True(filter.Matches("System.ArgumentException"));
        Assert.True(filter.Matches("System.TimeoutException"));
        Assert.False(filter.Matches("System.Exception"));
    }

    [Fact]
    public void Unknown_filter_ids_are_refused_with_the_known_ones_named()
    {
        var error = Assert.Throws<PyInspect.Debugger.Protocol.DapException>(() => ExceptionStops.KnownFilter("caught"));
        Assert.Contains("'all' or 'user-unhandled'", error.Message);
    }
}
