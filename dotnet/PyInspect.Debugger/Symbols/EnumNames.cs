// An enum value as .NET's Enum.ToString names it: the member with that exact value, or
// else the flags it is made of, chosen from the largest value down and listed by value
// (`read | write | append` for 7, whatever order the members are declared in), or else
// the number. Values and the evaluator both name enums through this one rule.
namespace PyInspect.Debugger.Symbols;

public static class EnumNames
{
    /// <summary>The name for `value`, or null when no member or set of flags makes it.</summary>
    public static string? Name(IReadOnlyList<(string Name, long Value)> members, long value)
    {
        foreach (var (name, memberValue) in members)
            if (memberValue == value) return name;
        if (value == 0) return null;
        var chosen = new List<(string Name, long Value)>();
        long left = value;
        foreach (var member in members.Where(m => m.Value != 0).OrderByDescending(m => (ulong)m.Value))
        {
            if ((left & member.Value) != member.Value) continue;
            chosen.Add(member);
            left &= ~member.Value;
        }
        return left == 0 ? string.Join(" | ", chosen.OrderBy(m => (ulong)m.Value).Select(m => m.Name)) : null;
    }
}
