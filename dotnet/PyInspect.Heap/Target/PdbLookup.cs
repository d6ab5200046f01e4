using System.Reflection.Metadata;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// The portable PDB of a module whose file is not here (a dump from another machine), looked
/// for as the DAC is: the path the module records, the --symbols folder (flat or in the
/// symbol store layout), beside the dump (its folder and <c>&lt;dump&gt;.dac/</c>), then each
/// symbol store's cache, and its servers when the module's file is not here either, by the
/// portable PDB key SOS uses (<c>name.pdb/&lt;guid&gt;FFFFFFFF/name.pdb</c>). A PDB serves only when its id has the
/// GUID the module records. ClrMD's locator finds images, not PDBs: the download is a bounded GET.
/// </summary>
public sealed class PdbLookup(DacSources? sources, string? dumpPath)
{
    /// <summary>Servers that did not answer: asked once per target, so a machine without a
    /// network waits one timeout, not one per module.</summary>
    private readonly Dictionary<string, string> _unreachable = [];

    /// <summary>The PDB of the module's build, or null and why not.</summary>
    public (MetadataReaderProvider? Pdb, string Why) Find(ClrModule module, string? symbolFolder)
    {
        if (module.Pdb is not { } recorded || string.IsNullOrEmpty(recorded.Path))
            return (null, "the module names no PDB");
        string name = recorded.Path.Split('/', '\\')[^1];
        string key = Key(name, recorded.Guid);
        var tried = new List<string>();
        foreach (string path in Places(recorded.Path, name, key, symbolFolder))
        {
            if (!File.Exists(path)) continue;
            if (Open(path, recorded.Guid, out string why) is { } provider) return (provider, "");
            tried.Add($"{path} ({why})");
        }
        // Servers only for a module whose file is not here (a dump from elsewhere): a local
        // framework module without its PDB is no reason to reach out.
        var servers = File.Exists(module.Name) ? [] : sources?.SymbolStores ?? [];
        foreach (var store in servers)
        {
            if (Download(store, key, out string why) is string path
                && Open(path, recorded.Guid, out why) is { } provider) return (provider, "");
            if (why.Length > 0) tried.Add(why);
        }
        return (null, $"no PDB {name} with id {recorded.Guid:N} found" + (tried.Count > 0 ? $" (tried: {string.Join("; ", tried)})" : ""));
    }

    /// <summary>The symbol store key of a portable PDB (SSQP: the GUID, then FFFFFFFF for the age).</summary>
    public static string Key(string pdbName, Guid id)
    {
        string name = pdbName.ToLowerInvariant();
        return $"{name}/{id:N}FFFFFFFF/{name}";
    }

    private IEnumerable<string> Places(string recordedPath, string name, string key, string? symbolFolder)
    {
        yield return recordedPath;
        if (!string.IsNullOrEmpty(symbolFolder))
        {
            yield return Path.Combine(symbolFolder, name);
            yield return Path.Combine(symbolFolder, key);
        }
        if (dumpPath is not null)
        {
            yield return Path.Combine(Path.GetDirectoryName(dumpPath) ?? "", name);
            if (sources?.BesideDump is string beside) yield return Path.Combine(beside, name);
        }
        foreach (var store in sources?.SymbolStores ?? [])
            yield return Path.Combine(store.Cache, key);
    }

    /// <summary>A PDB fetched from the store's servers into its cache; null and why not
    /// (empty why: no server to ask).</summary>
    private string? Download(SymbolStore store, string key, out string why)
    {
        why = "";
        if (store.Servers.Count == 0 || sources is null) return null;
        if (store.Servers.All(_unreachable.ContainsKey))
        {
            why = string.Join("; ", store.Servers.Select(server => $"{_unreachable[server]} (not asked again)"));
            return null;
        }
        if (sources.Offline)
        {
            why = $"{string.Join(", ", store.Servers)} (offline: not asked)";
            return null;
        }
        string target = Path.Combine(store.Cache, key);
        var timeout = TimeSpan.FromSeconds(sources.TimeoutSeconds);
        using var http = new HttpClient { Timeout = Timeout.InfiniteTimeSpan };
        foreach (string server in store.Servers.Where(server => !_unreachable.ContainsKey(server)))
        {
            // Fetched beside nothing of the cache: a failed request leaves no folder there.
            string partial = Path.Combine(Path.GetTempPath(), $"pyinspect-{Guid.NewGuid():N}.pdb.part");
            try
            {
                BoundedHttp.Get(http, server.TrimEnd('/') + "/" + key, partial, timeout);
                Directory.CreateDirectory(Path.GetDirectoryName(target)!);
                File.Move(partial, target, overwrite: true);
                return target;
            }
            catch (Exception exc) when (exc is FeedException or IOException or UnauthorizedAccessException)
            {
                why = exc.Message;
                if (exc is FeedException { Unreachable: true }) _unreachable[server] = why;
            }
            finally
            {
                File.Delete(partial);
            }
        }
        return null;
    }

    /// <summary>The PDB at path when its id starts with the module's GUID.</summary>
    private static MetadataReaderProvider? Open(string path, Guid wanted, out string why)
    {
        MetadataReaderProvider? provider = null;
        try
        {
            provider = MetadataReaderProvider.FromPortablePdbStream(File.OpenRead(path));
            var id = provider.GetMetadataReader().DebugMetadataHeader?.Id;
            if (id is { Length: >= 16 } bytes && new Guid(bytes.AsSpan(0, 16)) == wanted)
            {
                why = "";
                return provider;
            }
            why = "another build of the module";
        }
        catch (Exception exc) when (exc is BadImageFormatException or IOException or UnauthorizedAccessException)
        {
            why = "not a portable PDB";
        }
        provider?.Dispose();
        return null;
    }
}
