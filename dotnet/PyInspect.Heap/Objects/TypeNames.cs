using System.Text;

namespace PyInspect.Heap;

/// <summary>
/// Type names as .NET's Type.ToString() spells them ("System.Collections.Generic.List`1[System.Int32]"),
/// which is what the contracts show, converted from ClrMD's C#-like names
/// ("System.Collections.Generic.List&lt;System.Int32&gt;").
/// </summary>
internal static class TypeNames
{
    public static string Reflection(string? clrmdName)
    {
        if (string.IsNullOrEmpty(clrmdName))
            return "?";
        if (clrmdName.IndexOf('<') < 0)
            return clrmdName;
        int position = 0;
        return ParseName(clrmdName, ref position);
    }

    /// <summary>The generic arguments of a ClrMD name, each in reflection form.</summary>
    public static List<string> GenericArguments(string? clrmdName)
    {
        var result = new List<string>();
        if (string.IsNullOrEmpty(clrmdName))
            return result;
        int open = clrmdName.IndexOf('<');
        if (open < 0)
            return result;
        int position = open + 1;
        while (position < clrmdName.Length && clrmdName[position] != '>')
        {
            result.Add(ParseName(clrmdName, ref position));
            SkipSeparators(clrmdName, ref position);
        }
        return result;
    }

    /// <summary>"System.Collections.Generic.List`1[MyApp.Order]" becomes "List&lt;Order&gt;".</summary>
    public static string Short(string reflectionName)
    {
        int open = reflectionName.IndexOf('[');
        string head = open < 0 ? reflectionName : reflectionName[..open];
        string tail = open < 0 ? "" : reflectionName[open..];
        int tick = head.IndexOf('`');
        string simple = Simple(tick < 0 ? head : head[..tick]);
        if (tick < 0 || tail.Length < 2)
            return simple + tail;
        var args = SplitTopLevel(tail[1..^1]).Select(Short);
        return simple + "<" + string.Join(", ", args) + ">";
    }

    private static string Simple(string name)
    {
        int dot = name.LastIndexOf('.');
        return dot < 0 ? name : name[(dot + 1)..];
    }

    private static List<string> SplitTopLevel(string text)
    {
        var parts = new List<string>();
        int depth = 0, start = 0;
        for (int i = 0; i < text.Length; i++)
        {
            if (text[i] == '[') depth++;
            else if (text[i] == ']') depth--;
            else if (text[i] == ',' && depth == 0)
            {
                parts.Add(text[start..i]);
                start = i + 1;
            }
        }
        parts.Add(text[start..]);
        return parts;
    }

    /// <summary>One name starting at position: "Ns.Name&lt;args&gt;+Nested[]" in reflection form.</summary>
    private static string ParseName(string text, ref int position)
    {
        var head = new StringBuilder();
        var args = new List<string>();
        while (position < text.Length)
        {
            char c = text[position];
            if (c == '<')
            {
                position++;
                int before = args.Count;
                while (position < text.Length && text[position] != '>')
                {
                    args.Add(ParseName(text, ref position));
                    SkipSeparators(text, ref position);
                }
                position++; // '>'
                head.Append('`').Append(args.Count - before);
            }
            else if (c == ',' || c == '>')
                break;
            else
            {
                head.Append(c);
                position++;
            }
        }
        string name = head.ToString();
        if (args.Count == 0)
            return name;
        // Array suffixes stay after the argument list: List`1[System.Int32][] .
        int arrayAt = name.IndexOf('[');
        string suffix = arrayAt < 0 ? "" : name[arrayAt..];
        string baseName = arrayAt < 0 ? name : name[..arrayAt];
        return baseName + "[" + string.Join(",", args) + "]" + suffix;
    }

    private static void SkipSeparators(string text, ref int position)
    {
        while (position < text.Length && (text[position] == ',' || text[position] == ' '))
            position++;
    }
}
