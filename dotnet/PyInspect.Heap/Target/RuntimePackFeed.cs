using System.IO.Compression;
using System.Security.Cryptography;
using System.Text.Json;

namespace PyInspect.Heap;

/// <summary>
/// The runtime pack of one version (microsoft.netcore.app.runtime.RID) from a NuGet package
/// source, a local folder feed or a v3 feed over HTTP (a company mirror or nuget.org), put
/// into the global packages folder as NuGet itself lays it out
/// (id/version/ with the .nupkg, its .sha512 and .nupkg.metadata), so it is fetched once and
/// the packages folder serves it next time. Every network wait is bounded by the timeout.
/// </summary>
public sealed class RuntimePackFeed(string packagesFolder, TimeSpan timeout)
{
    public static string PackId(string rid) => $"microsoft.netcore.app.runtime.{rid}";

    /// <summary>The DAC of a pack in a packages folder (it may not exist).</summary>
    public static string DacIn(string packagesFolder, string rid, string version) =>
        Path.Combine(packagesFolder, PackId(rid), version.ToLowerInvariant(), "runtimes", rid, "native", DumpRuntime.DacName);

    /// <summary>The pack from one source into the packages folder: its DAC's path, or a
    /// FeedException saying why not (missing, HTTP status, timeout, or a DAC that
    /// <paramref name="mismatch"/> refuses: such a pack is never put into the folder).</summary>
    public string Fetch(string source, string rid, string version, Func<string, string?> mismatch)
    {
        string id = PackId(rid), lower = version.ToLowerInvariant();
        string file = $"{id}.{lower}.nupkg";
        if (Directory.Exists(Path.Combine(packagesFolder, id, lower)))
            throw new FeedException($"not fetched: the packages folder already holds {id} {lower} (tried above)");
        string nupkg = Path.Combine(Path.GetTempPath(), $"pyinspect-{Guid.NewGuid():N}.nupkg");
        try
        {
            if (IsUrl(source)) Download(source, $"{id}/{lower}/{file}", nupkg);
            else File.Copy(FindInFolder(source, id, lower, file), nupkg);
            Install(nupkg, id, lower, source, staged => mismatch(Path.Combine(staged, "runtimes", rid, "native", DumpRuntime.DacName)));
        }
        finally
        {
            File.Delete(nupkg);
        }
        return DacIn(packagesFolder, rid, version);
    }

    public static bool IsUrl(string source) => source.StartsWith("http://", StringComparison.OrdinalIgnoreCase)
        || source.StartsWith("https://", StringComparison.OrdinalIgnoreCase);

    /// <summary>A folder feed holds id.version.nupkg flat or id/version/id.version.nupkg.</summary>
    private static string FindInFolder(string folder, string id, string version, string file)
    {
        if (!Directory.Exists(folder)) throw new FeedException("the feed folder does not exist");
        foreach (string path in new[] { Path.Combine(folder, file), Path.Combine(folder, id, version, file) })
        {
            string? dir = Path.GetDirectoryName(path);
            if (dir is null || !Directory.Exists(dir)) continue;
            string? found = Directory.EnumerateFiles(dir).FirstOrDefault(f => Path.GetFileName(f).Equals(file, StringComparison.OrdinalIgnoreCase));
            if (found is not null) return found;
        }
        throw new FeedException($"no {file} in it");
    }

    /// <summary>A v3 feed: its service index names the flat container (PackageBaseAddress/3.0.0).</summary>
    private void Download(string index, string path, string into)
    {
        using var http = new HttpClient { Timeout = Timeout.InfiniteTimeSpan };
        using var indexJson = JsonDocument.Parse(BoundedHttp.Get(http, index, into: null, timeout));
        string? baseAddress = indexJson.RootElement.TryGetProperty("resources", out var resources)
            ? resources.EnumerateArray()
                .Where(r => r.TryGetProperty("@type", out var type) && type.GetString()?.StartsWith("PackageBaseAddress/3.0.0") == true)
                .Select(r => r.GetProperty("@id").GetString()).FirstOrDefault()
            : null;
        if (baseAddress is null) throw new FeedException("its index names no PackageBaseAddress/3.0.0 (not a NuGet v3 feed)");
        BoundedHttp.Get(http, baseAddress.TrimEnd('/') + "/" + path, into, timeout);
    }

    /// <summary>Extract as NuGet does (no OPC parts), into a temporary folder renamed into
    /// place, so a reader never sees half a package and a concurrent install wins cleanly.</summary>
    private void Install(string nupkg, string id, string version, string source, Func<string, string?> mismatch)
    {
        string final = Path.Combine(packagesFolder, id, version);
        string staging = Path.Combine(packagesFolder, id, $".{version}.pyinspect-{Guid.NewGuid():N}");
        Directory.CreateDirectory(staging);
        try
        {
            using (var zip = ZipFile.OpenRead(nupkg))
                foreach (var entry in zip.Entries.Where(e => e.Name.Length > 0 && !IsOpcPart(e.FullName)))
                {
                    string target = Path.GetFullPath(Path.Combine(staging, Uri.UnescapeDataString(entry.FullName)));
                    if (!target.StartsWith(staging + Path.DirectorySeparatorChar, StringComparison.Ordinal)) continue;
                    Directory.CreateDirectory(Path.GetDirectoryName(target)!);
                    entry.ExtractToFile(target, overwrite: true);
                }
            if (mismatch(staging) is string why) throw new FeedException($"its pack {version}: {why}");
            string kept = Path.Combine(staging, $"{id}.{version}.nupkg");
            File.Copy(nupkg, kept);
            string hash = Convert.ToBase64String(SHA512.HashData(File.ReadAllBytes(kept)));
            File.WriteAllText(kept + ".sha512", hash);
            File.WriteAllText(Path.Combine(staging, ".nupkg.metadata"),
                JsonSerializer.Serialize(new { version = 2, contentHash = hash, source }));
            Directory.Move(staging, final);
        }
        catch (IOException) when (Directory.Exists(final))
        {
        }
        finally
        {
            if (Directory.Exists(staging)) Directory.Delete(staging, recursive: true);
        }
    }

    private static bool IsOpcPart(string name) => name == "[Content_Types].xml" || name.StartsWith("_rels/", StringComparison.Ordinal)
        || name.StartsWith("package/", StringComparison.Ordinal) || name.EndsWith(".psmdcp", StringComparison.Ordinal);
}

/// <summary>Why a package source or server did not serve a file; Unreachable when it did
/// not answer at all (no HTTP status), so a lookup stops asking it.</summary>
public sealed class FeedException(string message, bool unreachable = false) : Exception(message)
{
    public bool Unreachable { get; } = unreachable;
}
