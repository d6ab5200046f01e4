// Usage: GetterNames ASSEMBLY_PATH...   (the .dll files a target process has mapped)
// Reads type names from stdin, one per line, as Type.FullName spells them without type
// arguments ("WebApp.OrderRepository", "System.Collections.Generic.List`1", "Outer+Inner"),
// and answers one JSON line each:
//   {"type": ..., "found": true, "properties": [...], "fields": [...]}
// properties: every public instance property with a public getter and no index parameters
// (inherited ones included), as reflection lists them; fields: every instance field of the
// type and its bases, public or not. The target's assemblies are loaded here for reflection
// only: no static constructor or other code of them runs, and the target is not touched.
using System.Reflection;
using System.Runtime.Loader;
using System.Text.Json;

var byName = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
foreach (string path in args.SelectMany(p => new[] { p }.Concat(Siblings(p))))
    byName.TryAdd(Path.GetFileNameWithoutExtension(path), path);

var context = new AssemblyLoadContext("target", isCollectible: false);
context.Resolving += (_, name) => name.Name is { } simple && byName.TryGetValue(simple, out var file) ? context.LoadFromAssemblyPath(file) : null;
List<Assembly> assemblies = args.Select(path => Load(context, path)).OfType<Assembly>().Distinct().ToList();

string? line;
while ((line = Console.ReadLine()) is not null)
{
    string name = line.Trim();
    Console.WriteLine(JsonSerializer.Serialize(Describe(name)));
    Console.Out.Flush();
}

Dictionary<string, object> Describe(string name)
{
    Type? type = assemblies.Select(a => Find(a, name)).FirstOrDefault(t => t is not null);
    if (type is null) return new() { ["type"] = name, ["found"] = false };
    try
    {
        var properties = type.GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Where(p => p.GetIndexParameters().Length == 0 && p.GetMethod is { IsPublic: true })
            .Select(p => p.Name).Distinct().ToList();
        var fields = new List<string>();
        for (Type? level = type; level is not null; level = level.BaseType)
            fields.AddRange(level.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly)
                .Select(f => f.Name));
        return new() { ["type"] = name, ["found"] = true, ["properties"] = properties, ["fields"] = fields.Distinct().ToList() };
    }
    catch (Exception error) when (error is TypeLoadException or FileNotFoundException or FileLoadException or BadImageFormatException)
    {
        return new() { ["type"] = name, ["found"] = false, ["error"] = $"{error.GetType().Name}: {error.Message}" };
    }
}

static Type? Find(Assembly assembly, string name)
{
    try
    {
        return assembly.GetType(name, throwOnError: false);
    }
    catch (Exception error) when (error is TypeLoadException or FileNotFoundException or FileLoadException)
    {
        return null;
    }
}

// The framework's own assemblies come from this process's runtime (the same shared runtime
// the target runs on: System.Private.CoreLib cannot load twice); the rest from their files.
static Assembly? Load(AssemblyLoadContext context, string path)
{
    try
    {
        AssemblyName name = AssemblyName.GetAssemblyName(path);
        try
        {
            return AssemblyLoadContext.Default.LoadFromAssemblyName(name);
        }
        catch (FileNotFoundException)
        {
            return context.LoadFromAssemblyPath(path);
        }
    }
    catch (Exception error) when (error is BadImageFormatException or FileLoadException or FileNotFoundException)
    {
        return null;
    }
}

// Assemblies the target has not loaded yet but whose types a property may name: those in
// the same folders (the shared frameworks, the app's own folder).
static IEnumerable<string> Siblings(string path) =>
    Path.GetDirectoryName(path) is { } folder && Directory.Exists(folder) ? Directory.EnumerateFiles(folder, "*.dll") : [];
