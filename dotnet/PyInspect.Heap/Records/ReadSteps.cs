namespace PyInspect.Heap;

/// <summary>
/// The steps of one read that may be left out: a module's static roots, a thread's stack.
/// Each is announced (<see cref="Breadcrumbs"/>) as it starts; when a damaged dump made the
/// DAC end the reader process in one, the caller reads again naming that step, and it is
/// skipped, the answer saying so in its completeness, instead of failing every time.
/// </summary>
public sealed class ReadSteps
{
    private readonly HashSet<string> _skip;

    /// <param name="skip">the steps to leave out, one a line (empty: none)</param>
    public ReadSteps(string? skip) =>
        _skip = (skip ?? "").Split('\n', StringSplitOptions.RemoveEmptyEntries).ToHashSet(StringComparer.Ordinal);

    /// <summary>The steps left out so far, as the caller named them.</summary>
    public List<string> Skipped { get; } = new();

    /// <summary>Announce a step; false when it is to be left out (then noted in <see cref="Skipped"/>).</summary>
    public bool Enter(string step)
    {
        Breadcrumbs.Say(step);
        if (!_skip.Contains(step))
            return true;
        Skipped.Add(step);
        return false;
    }

    /// <summary>The skipped steps as completeness notes.</summary>
    public List<string> Notes() =>
        Skipped.Select(s => $"{s}: left out (reading it ended the reader process: damaged data)").ToList();
}
