// Where a launch runs and what it runs, as netcoredbg and vsdbg take `cwd` and `program`:
// an empty or missing `cwd` is the adapter's own working directory, a relative one is
// resolved against it, and a relative `program` against the `cwd`. A path that does not
// exist is refused by name, never with the text of a .NET path exception.
namespace PyInspect.Debugger.Engine;

public static class LaunchPaths
{
    /// <summary>The working directory a launch runs in: absolute, and existing.</summary>
    public static string WorkingDirectory(string? cwd)
    {
        string here = Environment.CurrentDirectory;
        if (string.IsNullOrWhiteSpace(cwd)) return here;
        string full = FullPath(cwd, here, "cwd");
        return Directory.Exists(full) ? full : throw new EngineException($"cwd not found: '{cwd}' (resolved to {full})");
    }

    /// <summary>The program file, absolute, resolved against the working directory.</summary>
    public static string Program(string program, string workingDirectory)
    {
        if (string.IsNullOrWhiteSpace(program)) throw new EngineException("launch needs a non-empty 'program'");
        string full = FullPath(program, workingDirectory, "program");
        return File.Exists(full) ? full : throw new EngineException($"program not found: '{program}' (resolved to {full})");
    }

    private static string FullPath(string path, string basePath, string what)
    {
        try { return Path.GetFullPath(path, basePath); }
        catch (Exception e) when (e is ArgumentException or NotSupportedException or PathTooLongException)
        {
            throw new EngineException($"'{what}' is not a usable path: '{path}'");
        }
    }
}
