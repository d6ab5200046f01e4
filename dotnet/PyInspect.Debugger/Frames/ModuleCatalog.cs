// The modules the debuggee has loaded, with their symbols when a portable PDB sits beside
// them. Filled on ICorDebug's callback thread, read by requests: every access is locked.
using PyInspect.Debugger.Engine;
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Frames;

public sealed record LoadedModule(ICorDebugModule Module, string Path, ModuleSymbols? Symbols)
{
    public string FileName => System.IO.Path.GetFileName(Path);
    public ModuleMetadata? Metadata => File.Exists(Path) ? ModuleMetadata.Open(Path) : null;
}

public sealed class ModuleCatalog : IDisposable
{
    private readonly object _gate = new();
    private readonly Dictionary<string, LoadedModule> _byPath = new(StringComparer.Ordinal);

    /// <summary>Record a module with its symbols (StepFilter makes those with symbols "my code").</summary>
    public LoadedModule Add(ICorDebugModule module, string path)
    {
        ModuleSymbols? symbols = path.Length > 0 ? ModuleSymbols.TryLoad(path) : null;
        var loaded = new LoadedModule(module, path, symbols);
        lock (_gate) _byPath[path] = loaded;
        return loaded;
    }

    public IReadOnlyList<LoadedModule> WithSymbols()
    {
        lock (_gate) return [.. _byPath.Values.Where(m => m.Symbols is not null)];
    }

    /// <summary>Every loaded module, with or without symbols (the evaluator looks types up in them).</summary>
    public IReadOnlyList<LoadedModule> All()
    {
        lock (_gate) return [.. _byPath.Values];
    }

    public LoadedModule? Find(string path)
    {
        lock (_gate) return _byPath.GetValueOrDefault(path);
    }

    /// <summary>The catalogue entry for a module object ICorDebug handed us.</summary>
    public LoadedModule? Find(ICorDebugModule module) => Find(DebuggerEngine.ModuleName(module));

    public void Dispose()
    {
        lock (_gate)
        {
            foreach (var module in _byPath.Values) module.Symbols?.Dispose();
            _byPath.Clear();
        }
    }
}
