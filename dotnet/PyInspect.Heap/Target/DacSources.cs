using System.Text.Json;

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

    /// <summary>The JSON pyinspect's dac_sources_json writes: camelCase names, unknown ones ignored,
    /// the last of a repeated name kept. Read off a JsonDocument (as every request is) rather than by
    /// the serializer, whose first use (its options, converters and metadata) was the costliest part
    /// of a dump's open; a value of the wrong kind is a JsonException, as the serializer's was.</summary>
    public static DacSources Parse(string json)
    {
        using JsonDocument document = JsonDocument.Parse(json);
        JsonElement root = document.RootElement;
        if (root.ValueKind == JsonValueKind.Null)
            throw new HeapTargetException("INVALID_PARAMETER", "no DAC sources given");
        var sources = new DacSources();
        foreach (JsonProperty property in Of(root, JsonValueKind.Object).EnumerateObject())
        {
            JsonElement value = property.Value;
            sources = property.Name switch
            {
                "explicitDac" => sources with { ExplicitDac = Text(value) },
                "besideDump" => sources with { BesideDump = Text(value) },
                "installedRuntimes" => sources with { InstalledRuntimes = Texts(value) },
                "searchDacs" => sources with { SearchDacs = Texts(value) },
                "packagesFolder" => sources with { PackagesFolder = Text(value) },
                "symbolStores" => sources with { SymbolStores = Stores(value) },
                "feeds" => sources with { Feeds = Texts(value) },
                "offline" => sources with { Offline = value.ValueKind == JsonValueKind.True || Of(value, JsonValueKind.False).GetBoolean() },
                "timeoutSeconds" => sources with { TimeoutSeconds = Of(value, JsonValueKind.Number).GetDouble() },
                _ => sources,
            };
        }
        return sources;
    }

    private static JsonElement Of(JsonElement value, JsonValueKind kind) => value.ValueKind == kind ? value
        : throw new JsonException($"the DAC sources hold a JSON {value.ValueKind} where a {kind} belongs");

    private static string? Text(JsonElement value) =>
        value.ValueKind == JsonValueKind.Null ? null : Of(value, JsonValueKind.String).GetString();

    private static List<string> Texts(JsonElement value)
    {
        var texts = new List<string>();
        foreach (JsonElement item in Of(value, JsonValueKind.Array).EnumerateArray())
            texts.Add(Of(item, JsonValueKind.String).GetString()!);
        return texts;
    }

    private static List<SymbolStore> Stores(JsonElement value)
    {
        var stores = new List<SymbolStore>();
        foreach (JsonElement store in Of(value, JsonValueKind.Array).EnumerateArray())
        {
            string cache = "";
            List<string> servers = [];
            foreach (JsonProperty property in Of(store, JsonValueKind.Object).EnumerateObject())
                if (property.Name == "cache") cache = Of(property.Value, JsonValueKind.String).GetString()!;
                else if (property.Name == "servers") servers = Texts(property.Value);
            stores.Add(new SymbolStore(cache, servers));
        }
        return stores;
    }

    /// <summary>The explicit DAC alone (a live process's, or --dac).</summary>
    public static DacSources Only(string dac) => new() { ExplicitDac = dac, Offline = true };
}

/// <summary>One symbol store: files are looked for in Cache by their key, then fetched from Servers into it.</summary>
public sealed record SymbolStore(string Cache, IReadOnlyList<string> Servers);
