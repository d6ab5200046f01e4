// A function breakpoint's name as a user types it into "Add Function Breakpoint":
// `Method`, `Type.Method`, `Namespace.Type.Method` (nested types by "." or "+"), generic
// arguments anywhere (`Echo<T>`, `Box<int>.Get`) ignored, and an optional parameter list
// (`Method()`, `Method(int)`, `Method(int, string)`) that picks overloads by their C# or
// .NET type names. The qualifier matches the end of the declaring type's full name, so
// `Program.Run` is every Run of every type named Program, in any namespace.
using PyInspect.Debugger.Symbols;

namespace PyInspect.Debugger.Session;

public sealed class FunctionName
{
    private static readonly Dictionary<string, string> Aliases = new(StringComparer.Ordinal)
    {
        ["bool"] = "Boolean", ["byte"] = "Byte", ["sbyte"] = "SByte", ["char"] = "Char", ["short"] = "Int16",
        ["ushort"] = "UInt16", ["int"] = "Int32", ["uint"] = "UInt32", ["long"] = "Int64", ["ulong"] = "UInt64",
        ["float"] = "Single", ["double"] = "Double", ["decimal"] = "Decimal", ["string"] = "String",
        ["object"] = "Object", ["nint"] = "IntPtr", ["nuint"] = "UIntPtr", ["void"] = "Void",
    };

    private FunctionName(IReadOnlyList<string> qualifier, string method, IReadOnlyList<string>? parameters)
    {
        Qualifier = qualifier;
        Method = method;
        Parameters = parameters;
    }

    /// <summary>Type name segments before the method (empty for a bare `Method`).</summary>
    public IReadOnlyList<string> Qualifier { get; }
    public string Method { get; }
    /// <summary>The parameter types asked for, shortened; null when no list was given (every overload).</summary>
    public IReadOnlyList<string>? Parameters { get; }

    /// <summary>The parsed name, or null with `why` saying what is wrong with it.</summary>
    public static FunctionName? TryParse(string text, out string why)
    {
        why = "";
        string name = text.Trim();
        List<string>? parameters = null;
        int open = TopLevelIndex(name, '(');
        if (open >= 0)
        {
            if (!name.EndsWith(')') || TopLevelIndex(name[(open + 1)..^1], '(') >= 0)
                return Refuse(text, "its parameter list must end the name, as in Method(int, string)", out why);
            string inside = name[(open + 1)..^1].Trim();
            parameters = inside.Length == 0 ? [] : [.. SplitTopLevel(inside, ',').Select(ShortType)];
            if (parameters.Any(p => p.Length == 0)) return Refuse(text, "a parameter type is empty", out why);
            name = name[..open].Trim();
        }
        var segments = SplitTopLevel(name.Replace('+', '.'), '.').Select(StripGenericArguments).ToList();
        if (segments.Count == 0 || segments.Any(s => !IsIdentifier(s)))
            return Refuse(text, "use Method, Type.Method or Namespace.Type.Method, optionally with (parameter types)", out why);
        return new FunctionName(segments[..^1], segments[^1], parameters);
    }

    private static FunctionName? Refuse(string text, string rule, out string why)
    {
        why = $"'{text}' is not a function name: {rule}";
        return null;
    }

    /// <summary>Method tokens in a module that this name means.</summary>
    public IEnumerable<int> Match(ModuleMetadata metadata) =>
        metadata.MethodsNamed(Method)
            .Where(m => QualifierMatches(m.TypeName) && ParametersMatch(m.Method.ParameterTypes))
            .Select(m => m.Method.Token);

    private bool QualifierMatches(string typeName)
    {
        if (Qualifier.Count == 0) return true;
        var type = typeName.Split('.');
        return type.Length >= Qualifier.Count && type[^Qualifier.Count..].SequenceEqual(Qualifier);
    }

    private bool ParametersMatch(IReadOnlyList<string> declared)
    {
        if (Parameters is null) return true;
        if (declared.Count != Parameters.Count) return false;
        for (int i = 0; i < declared.Count; i++)
        {
            string have = ShortType(declared[i]);
            // A generic parameter ("!!0", "!0") is whatever name the user gave it (T, TKey).
            if (have.TrimStart('!') is var bare && bare.Length < have.Length && int.TryParse(bare.TrimEnd('[', ']', '&'), out _))
                continue;
            if (have != Parameters[i]) return false;
        }
        return true;
    }

    /// <summary>"System.Int32", "int", "Int32" all become "Int32"; "ref int" "Int32&amp;";
    /// "List&lt;int&gt;", "System.Collections.Generic.List`1&lt;System.Int32&gt;" both "List".</summary>
    private static string ShortType(string type)
    {
        string text = type.Trim();
        string suffix = "";
        foreach (string modifier in (string[])["ref ", "out ", "in ", "params "])
            if (text.StartsWith(modifier, StringComparison.Ordinal))
            {
                text = text[modifier.Length..].Trim();
                if (modifier != "params ") suffix = "&";
            }
        if (text.EndsWith('&')) (text, suffix) = (text[..^1], "&");
        string arrays = "";
        while (text.EndsWith(']') && text.LastIndexOf('[') is var at and >= 0)
            (text, arrays) = (text[..at].Trim(), text[at..] + arrays);
        text = StripGenericArguments(text).TrimEnd('?');
        string last = SplitTopLevel(text, '.').LastOrDefault() ?? "";
        if (Aliases.TryGetValue(last, out string? alias)) last = alias;
        return last + arrays.Replace(" ", "") + suffix;
    }

    private static string StripGenericArguments(string segment)
    {
        string text = segment.Trim();
        int angle = text.IndexOf('<');
        if (angle >= 0) text = text[..angle];
        int tick = text.IndexOf('`');
        return (tick >= 0 ? text[..tick] : text).Trim().TrimStart('@');
    }

    private static bool IsIdentifier(string text) =>
        text.Length > 0 && (char.IsLetter(text[0]) || text[0] == '_')
        && text.Skip(1).All(c => char.IsLetterOrDigit(c) || c == '_');

    /// <summary>First `c` outside angle brackets; -1 when none.</summary>
    private static int TopLevelIndex(string text, char c)
    {
        int depth = 0;
        for (int i = 0; i < text.Length; i++)
        {
            if (text[i] == '<') depth++;
            else if (text[i] == '>') depth--;
            else if (text[i] == c && depth == 0) return i;
        }
        return -1;
    }

    private static List<string> SplitTopLevel(string text, char separator)
    {
        var parts = new List<string>();
        int depth = 0, start = 0;
        for (int i = 0; i < text.Length; i++)
        {
            if (text[i] is '<' or '[') depth++;
            else if (text[i] is '>' or ']') depth--;
            else if (text[i] == separator && depth == 0)
            {
                parts.Add(text[start..i].Trim());
                start = i + 1;
            }
        }
        parts.Add(text[start..].Trim());
        return parts;
    }
}
