using System.Text.Json.Nodes;
using PyInspect.Debugger.Symbols;
using Xunit;

namespace PyInspect.Tests;

public sealed class SourceFileMapTests
{
    private static SourceFileMap Map(string json) => SourceFileMap.From(JsonNode.Parse(json));

    [Fact]
    public void A_build_path_is_shown_as_the_local_one_and_back()
    {
        var map = Map("""{"/build/src": "/home/me/src"}""");
        Assert.Equal("/home/me/src/App/Program.cs", map.ToLocal("/build/src/App/Program.cs"));
        Assert.Equal("/build/src/App/Program.cs", map.ToBuild("/home/me/src/App/Program.cs"));
    }

    [Fact]
    public void The_longest_prefix_wins()
    {
        var map = Map("""{"/build": "/a", "/build/src/lib": "/b"}""");
        Assert.Equal("/b/X.cs", map.ToLocal("/build/src/lib/X.cs"));
        Assert.Equal("/a/src/Y.cs", map.ToLocal("/build/src/Y.cs"));
    }

    [Fact]
    public void A_prefix_matches_whole_directory_names_only()
    {
        var map = Map("""{"/build/src": "/home/me/src"}""");
        Assert.Equal("/build/srcother/X.cs", map.ToLocal("/build/srcother/X.cs"));
    }

    [Fact]
    public void Windows_build_paths_are_compared_with_forward_slashes()
    {
        var map = Map("""{"C:\\build\\src": "/home/me/src"}""");
        Assert.Equal("/home/me/src/Program.cs", map.ToLocal("C:\\build\\src\\Program.cs"));
    }

    [Fact]
    public void Without_a_map_a_path_is_only_normalized() =>
        Assert.Equal("/y/Z.cs", SourceFileMap.From(null).ToLocal("/x/../y/Z.cs"));
}
