namespace PyInspect.Tests;

/// <summary>The checkout the tests run from (the folder holding build.proj).</summary>
public static class Repository
{
    public static readonly string Root = Find();

    private static string Find()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "build.proj"))) return dir.FullName;
        throw new InvalidOperationException($"no build.proj above {AppContext.BaseDirectory}");
    }
}
