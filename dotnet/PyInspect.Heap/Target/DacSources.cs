using System.Text.Json;
using System.Text.Json.Serialization;

namespace PyInspect.Heap;

/// <summary>
/// Where a dump's DAC is looked for, as pyinspect/targets/dac_sources.py computed it from the
/// user's settings (flags, NUGET_PACKAGES, NuGet.Config, _NT_SYMBOL_PATH, offline): the
/// helper walks these places in order and never decides a place of its own.
/// </summary>
public sealed record DacSources
{
    /// <summary>--dac / dac=: used alone when given.</summary>
    public string? ExplicitDac { get; init; }

    /// <summary>The folder `heap dump` keeps the runtime's DAC and libcoreclr.so in, beside the dump.</summary>
    public string? BesideDump { get; init; }

    /// <summary>Folders of installed shared runtimes (…/shared/Microsoft.NETCore.App), one version folder each below.</summary>
    public IReadOnlyList<string> InstalledRuntimes { get; init; } = [];

    /// <summary>Each libmscordaccore.so found below the folders of $PYINSPECT_DAC_SEARCH_PATH.</summary>
    public IReadOnlyList<string> SearchDacs { get; init; } = [];

    /// <summary>The NuGet global packages folder (NUGET_PACKAGES, else ~/.nuget/packages).</summary>
    public string? PackagesFolder { get; init; }

    /// <summary>Symbol stores: a local cache folder and the servers that fill it.</summary>
    public IReadOnlyList<SymbolStore> SymbolStores { get; init; } = [];

    /// <summary>NuGet package sources (a v3 index URL or a local folder), in the configuration's order.</summary>
    public IReadOnlyList<string> Feeds { get; init; } = [];

    /// <summary>No step touches the network: servers and HTTP feeds are named as not asked.</summary>
    public bool Offline { get; init; }

    /// <summary>The longest any one network wait may last.</summary>
    public double TimeoutSeconds { get; init; } = 10;

    public static DacSources Parse(string json) =>
        JsonSerializer.Deserialize(json, DacSourcesJson.Default.DacSources)
        ?? throw new HeapTargetException("INVALID_PARAMETER", "no DAC sources given");

    /// <summary>The explicit DAC alone (a live process's, or --dac).</summary>
    public static DacSources Only(string dac) => new() { ExplicitDac = dac, Offline = true };
}

/// <summary>One symbol store: files are looked for in Cache by their key, then fetched from Servers into it.</summary>
public sealed record SymbolStore(string Cache, IReadOnlyList<string> Servers);

/// <summary>DacSources' JSON shape, generated at build time: the dump's open reads it before any
/// answer, and reflection over it (the serializer's metadata, built on first use) cost the open
/// more than the DAC's load.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(DacSources))]
internal sealed partial class DacSourcesJson : JsonSerializerContext;
