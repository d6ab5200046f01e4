using System.Diagnostics;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>One place a DAC was looked for and what came of it (for the error and the report).</summary>
public sealed record DacAttempt(string Place, string Path, string Outcome, double Seconds);

/// <summary>
/// A dump's DAC wherever it is, each proved by build id before it is loaded
/// (<see cref="DacChoice.Mismatch"/>), in this order, stopping at the first match: the DAC
/// named explicitly (alone); the one `heap dump` kept beside the dump; the runtime folder the
/// dump records, the installed runtimes and the search folders; the NuGet global packages
/// folder's runtime pack of that exact version; the symbol stores (cache, then servers, by
/// the CoreCLR build id key SOS uses); the NuGet package sources' runtime pack, put into the
/// packages folder. Places are enumerated lazily: nothing is downloaded once a DAC served.
/// </summary>
public sealed class DacLookup(ClrInfo info, DumpRuntime runtime, DacSources sources)
{
    private readonly List<DacAttempt> _attempts = [];

    public IReadOnlyList<DacAttempt> Attempts => _attempts;

    public ClrRuntime CreateRuntime(string description, string errorCode)
    {
        var clock = Stopwatch.StartNew();
        foreach (var (place, path, unavailable, coreclr) in Candidates())
        {
            string? why = unavailable ?? (File.Exists(path) ? DacChoice.Mismatch(info, runtime.Wanted, path, coreclr) : "missing");
            if (why is null)
            {
                try
                {
                    var loaded = DacChoice.Load(info, path);
                    Note(place, path, "used", clock);
                    return loaded;
                }
                catch (Exception exc) when (exc is ClrDiagnosticsException or InvalidOperationException or IOException)
                {
                    why = exc.Message;
                }
            }
            Note(place, path, why, clock);
        }
        throw new HeapTargetException(errorCode, NoMatchMessage(description));
    }

    private void Note(string place, string path, string outcome, Stopwatch clock)
    {
        _attempts.Add(new DacAttempt(place, path, outcome, Math.Round(clock.Elapsed.TotalSeconds, 4)));
        clock.Restart();
    }

    private sealed record Candidate(string Place, string Path, string? Unavailable = null, string? Coreclr = null);

    private IEnumerable<Candidate> Candidates()
    {
        if (sources.ExplicitDac is not null)
        {
            yield return new("--dac", sources.ExplicitDac);
            yield break;
        }
        if (sources.BesideDump is not null)
            yield return new("beside the dump", Path.Combine(sources.BesideDump, DumpRuntime.DacName));
        foreach (string dac in Recorded())
            yield return new("the runtime folder the dump records", dac);
        bool installed = false;
        foreach (string dac in Installed())
        {
            installed = true;
            yield return new("installed runtimes", dac);
        }
        if (!installed)
            yield return new("installed runtimes", string.Join(", ", sources.InstalledRuntimes), "no runtime installed there");
        foreach (string dac in sources.SearchDacs)
            yield return new("PYINSPECT_DAC_SEARCH_PATH", dac);
        foreach (var candidate in PackagesFolder().Concat(SymbolStores()).Concat(Feeds()))
            yield return candidate;
    }

    /// <summary>The DAC in the runtime folder the dump records; a shared runtime's folder is
    /// an installed runtime of this machine, tried with the installed ones.</summary>
    private IEnumerable<string> Recorded() =>
        runtime.RecordedFolder.Contains(SharedRuntimes, StringComparison.Ordinal)
            ? []
            : info.DebuggingLibraries
                .Where(lib => lib.Kind == DebugLibraryKind.Dac && System.IO.Path.IsPathRooted(lib.FileName))
                .Select(lib => lib.FileName)
                .Append(Path.Combine(runtime.RecordedFolder, DumpRuntime.DacName))
                .Distinct();

    private const string SharedRuntimes = "/shared/Microsoft.NETCore.App/";

    /// <summary>Each installed shared runtime's DAC, the dump's version first.</summary>
    private IEnumerable<string> Installed() =>
        sources.InstalledRuntimes.Where(Directory.Exists)
            .SelectMany(root => Directory.EnumerateDirectories(root).Order()
                .OrderBy(folder => Path.GetFileName(folder) == runtime.Version ? 0 : 1))
            .Select(folder => Path.Combine(folder, DumpRuntime.DacName))
            .Where(File.Exists);

    private IEnumerable<Candidate> PackagesFolder()
    {
        const string place = "NuGet packages folder";
        if (sources.PackagesFolder is null) yield break;
        if (runtime.Version is null)
        {
            yield return new(place, sources.PackagesFolder, $"the dump's runtime version is unknown ({runtime.VersionFrom})");
            yield break;
        }
        yield return new(place, RuntimePackFeed.DacIn(sources.PackagesFolder, runtime.Rid, runtime.Version));
    }

    private IEnumerable<Candidate> SymbolStores()
    {
        const string place = "symbol server";
        string key = SymbolFetch.Key(DumpRuntime.DacName, runtime.CoreclrBuildId, underCoreclr: true);
        foreach (var store in sources.SymbolStores)
        {
            if (SymbolFetch.Cached(store.Cache, key) is string cached)
            {
                yield return new("symbol cache", cached, null, CoreclrProof(store, download: false));
                continue;
            }
            if (store.Servers.Count == 0)
            {
                yield return new("symbol cache", Path.Combine(store.Cache, key), "missing");
                continue;
            }
            string where = $"{string.Join(", ", store.Servers)} ({key})";
            if (sources.Offline)
            {
                yield return new(place, where, "offline: not asked");
                continue;
            }
            var (path, why) = SymbolFetch.Download(store, DumpRuntime.DacName, runtime.CoreclrBuildId, true, Timeout);
            yield return path is null ? new(place, where, why) : new(place, path, null, CoreclrProof(store, download: true));
        }
    }

    /// <summary>Where the runtime records no DAC build id, the store's libcoreclr.so of the
    /// runtime's build (its own key) proves a DAC from the same store.</summary>
    private string? CoreclrProof(SymbolStore store, bool download)
    {
        if (runtime.DacBuildId is not null) return null;
        string key = SymbolFetch.Key(DumpRuntime.CoreclrName, runtime.CoreclrBuildId, underCoreclr: false);
        return SymbolFetch.Cached(store.Cache, key)
            ?? (download ? SymbolFetch.Download(store, DumpRuntime.CoreclrName, runtime.CoreclrBuildId, false, Timeout).Path : null);
    }

    private IEnumerable<Candidate> Feeds()
    {
        const string place = "NuGet feed";
        if (sources.PackagesFolder is null || runtime.Version is null) yield break;
        if (sources.Feeds.Count == 0)
            yield return new(place, "", "no package source in the NuGet configuration");
        var feed = new RuntimePackFeed(sources.PackagesFolder, Timeout);
        foreach (string source in sources.Feeds)
        {
            if (sources.Offline && RuntimePackFeed.IsUrl(source))
            {
                yield return new(place, source, "offline: not asked");
                continue;
            }
            Candidate found;
            try
            {
                found = new(place, feed.Fetch(source, runtime.Rid, runtime.Version,
                    dac => File.Exists(dac) ? DacChoice.Mismatch(info, runtime.Wanted, dac, null) : "it has no DAC"));
            }
            catch (Exception exc) when (exc is FeedException or IOException or InvalidDataException or UnauthorizedAccessException
                                        or System.Text.Json.JsonException)
            {
                found = new(place, source, exc.Message);
            }
            yield return found;
        }
    }

    private TimeSpan Timeout => TimeSpan.FromSeconds(sources.TimeoutSeconds);

    private string NoMatchMessage(string description) =>
        $"no DAC matching the .NET runtime of {description}: it needs libmscordaccore.so of {runtime.Describe()} "
        + $"for {runtime.Rid} (recorded at {runtime.RecordedFolder}; version from {runtime.VersionFrom}). "
        + (_attempts.Count == 0 ? "No DAC was found to try. " : $"Tried: {string.Join("; ", _attempts.Select(a => $"{a.Place}: {a.Path} ({a.Outcome})"))}. ")
        + "Pass that runtime's DAC with --dac PATH (dac= in the notebook), name a folder holding it in "
        + "PYINSPECT_DAC_SEARCH_PATH, or put the runtime pack "
        + $"{RuntimePackFeed.PackId(runtime.Rid)} {runtime.Version ?? "of that version"} in the NuGet packages folder"
        + (sources.Offline ? " (offline: no server or feed was asked; PYINSPECT_OFFLINE / --offline)." : ".");
}
