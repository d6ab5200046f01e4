// The places a dump's DAC is looked for, read from the JSON pyinspect/targets/dac_sources.py writes.
using System.Text.Json;
using PyInspect.Heap;
using Xunit;

namespace PyInspect.Tests;

public sealed class DacSourcesTests
{
    [Fact]
    public void Every_place_is_read_as_written()
    {
        var sources = DacSources.Parse("""
            {"explicitDac": null, "besideDump": "/d/app.dmp.runtime",
             "installedRuntimes": ["/usr/share/dotnet/shared/Microsoft.NETCore.App", "/opt/dotnet/shared/Microsoft.NETCore.App"],
             "searchDacs": ["/s/libmscordaccore.so"], "packagesFolder": "/root/.nuget/packages",
             "symbolStores": [{"cache": "/c", "servers": ["https://a/", "https://b/"]}, {"cache": "/c2", "servers": []}],
             "feeds": ["https://api.nuget.org/v3/index.json", "/local"], "offline": true, "timeoutSeconds": 2.5,
             "comingLater": {"ignored": [1]}}
            """);
        Assert.Null(sources.ExplicitDac);
        Assert.Equal("/d/app.dmp.runtime", sources.BesideDump);
        Assert.Equal(["/usr/share/dotnet/shared/Microsoft.NETCore.App", "/opt/dotnet/shared/Microsoft.NETCore.App"], sources.InstalledRuntimes);
        Assert.Equal(["/s/libmscordaccore.so"], sources.SearchDacs);
        Assert.Equal("/root/.nuget/packages", sources.PackagesFolder);
        Assert.Equal(2, sources.SymbolStores.Count);
        Assert.Equal("/c", sources.SymbolStores[0].Cache);
        Assert.Equal(["https://a/", "https://b/"], sources.SymbolStores[0].Servers);
        Assert.Equal("/c2", sources.SymbolStores[1].Cache);
        Assert.Empty(sources.SymbolStores[1].Servers);
        Assert.Equal(["https://api.nuget.org/v3/index.json", "/local"], sources.Feeds);
        Assert.True(sources.Offline);
        Assert.Equal(2.5, sources.TimeoutSeconds);
    }

    [Fact]
    public void Null_is_no_sources_and_a_value_of_the_wrong_kind_is_refused()
    {
        var sources = DacSources.Parse("""{"explicitDac": "/x/libmscordaccore.so", "offline": false}""");
        Assert.Equal("/x/libmscordaccore.so", sources.ExplicitDac);
        Assert.False(sources.Offline);
        Assert.Equal("INVALID_PARAMETER", Assert.Throws<HeapTargetException>(() => DacSources.Parse("null")).Code);
        Assert.Throws<JsonException>(() => DacSources.Parse("""{"offline": "yes"}"""));
        Assert.Throws<JsonException>(() => DacSources.Parse("""{"feeds": "/local"}"""));
        Assert.Throws<JsonException>(() => DacSources.Parse("[]"));
    }
}
