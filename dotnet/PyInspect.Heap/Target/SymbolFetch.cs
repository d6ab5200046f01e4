using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Diagnostics;
using System.Runtime.InteropServices;
using Microsoft.Diagnostics.Runtime;

namespace PyInspect.Heap;

/// <summary>
/// Files from a symbol store (the _NT_SYMBOL_PATH layout SOS and WinDbg use,
/// file/elf-buildid[-coreclr]-ID/file): the cache folder first, by the key alone, so a file
/// fetched once costs a file test; then ClrMD's own symbol server locator, which downloads
/// into that cache. ClrMD waits on its HTTP client without a bound and keeps the reason to
/// itself, so the wait is bounded here and the HTTP status read from its request trace.
/// </summary>
public static class SymbolFetch
{
    /// <summary>The store key of an ELF file: coreclr=true is the DAC's key under the
    /// runtime's build id (SOS's), false a file's own build id.</summary>
    public static string Key(string file, string buildId, bool underCoreclr) =>
        $"{file}/elf-buildid-{(underCoreclr ? "coreclr-" : "")}{buildId}/{file}";

    /// <summary>The cached file of a key, or null.</summary>
    public static string? Cached(string cache, string key)
    {
        string path = Path.Combine(cache, key);
        return File.Exists(path) ? path : null;
    }

    /// <summary>A file fetched from the store's servers into its cache: its path, or why not
    /// (HTTP status, connection failure, or no answer within the timeout).</summary>
    public static (string? Path, string Why) Download(SymbolStore store, string file, string buildId, bool underCoreclr,
        TimeSpan timeout)
    {
        var trace = new RequestTrace();
        Trace.Listeners.Add(trace);
        AppDomain.CurrentDomain.FirstChanceException += trace.OnException;
        try
        {
            var locator = new DataTargetOptions
            {
                SymbolCachePath = store.Cache, SymbolPaths = store.Servers.ToArray(), TraceSymbolRequests = true,
            }.FileLocator;
            var id = Convert.FromHexString(buildId).ToImmutableArray();
            var find = Task.Run(() => locator.FindPEImage(file, underCoreclr ? SymbolProperties.Coreclr : SymbolProperties.Self,
                id, OSPlatform.Linux, checkProperties: false));
            if (!find.Wait(timeout))
                return (null, $"no answer from {string.Join(", ", store.Servers)} within {timeout.TotalSeconds:0.#} s");
            if (find.Result is string path && File.Exists(path)) return (path, "downloaded");
            return (null, trace.Why(store.Servers));
        }
        catch (AggregateException exc)
        {
            return (null, exc.InnerException?.Message ?? exc.Message);
        }
        finally
        {
            AppDomain.CurrentDomain.FirstChanceException -= trace.OnException;
            Trace.Listeners.Remove(trace);
        }
    }

    /// <summary>ClrMD's "symbol request: URL returned STATUS" lines and the network
    /// exceptions raised while a request runs (ClrMD swallows them).</summary>
    private sealed class RequestTrace : TraceListener
    {
        private readonly ConcurrentQueue<string> _seen = new();

        public override void Write(string? message) { }

        public override void WriteLine(string? message)
        {
            if (message is not null && message.StartsWith("ClrMD symbol request:", StringComparison.Ordinal))
                _seen.Enqueue(message["ClrMD symbol request: ".Length..]);
        }

        public void OnException(object? sender, System.Runtime.ExceptionServices.FirstChanceExceptionEventArgs args)
        {
            if (args.Exception is HttpRequestException or System.Net.Sockets.SocketException)
                _seen.Enqueue(args.Exception.Message);
        }

        public string Why(IReadOnlyList<string> servers) => _seen.IsEmpty
            ? $"not found on {string.Join(", ", servers)}"
            : string.Join("; ", _seen.Distinct());
    }
}
