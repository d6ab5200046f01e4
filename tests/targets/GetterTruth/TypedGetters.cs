// Getters over types, generic statics and exception handlers (issue 25's corpus): `typeof(T) ==`
// chains shaped like Kestrel's generated HttpProtocol.Get<TFeature>, a `Type` the program holds
// compared with typeof, typeof of a type argument, a generic type's static, and try/catch: a
// catch that takes the exception (by its class, by a base class, by a filter) and one that does
// not match and lets it out.
namespace GetterTruth;

public interface IRequestFeature { string Method { get; } }
public interface IUserFeature { string Name { get; } }
public interface IMissingFeature { }

public sealed class RequestFeature(string method) : IRequestFeature { public string Method => method; }
public sealed class UserFeature(string name) : IUserFeature { public string Name => name; }

public sealed class Features(IRequestFeature request, IUserFeature? user)
{
    private readonly object _request = request;
    private readonly object? _user = user;
    private static readonly Type HeldKind = typeof(IUserFeature);  // static: its RuntimeType's own getters stay out of the corpus

    public TFeature? Get<TFeature>() where TFeature : class
    {
        if (typeof(TFeature) == typeof(IRequestFeature)) return (TFeature)_request;
        if (typeof(TFeature) == typeof(IUserFeature)) return (TFeature?)_user;
        return null;
    }

    public string Method => Get<IRequestFeature>()!.Method;
    public string UserName => Get<IUserFeature>()?.Name ?? "anonymous";
    public bool HasMissing => Get<IMissingFeature>() is not null;
    public bool HeldKindIsUser => HeldKind == typeof(IUserFeature);        // a Type the program holds against typeof
    public bool HeldKindIsRequest => HeldKind == typeof(IRequestFeature);
    public bool RequestIsFeature => _request.GetType() == typeof(RequestFeature);
}

public sealed class Slot<T>
{
    public string Kind => typeof(T) == typeof(string) ? "text" : typeof(T).IsValueType ? "value" : "reference";
}

public static class Registry<T>
{
    public static readonly List<T> Items = new();
}

public sealed class Catalog(string first, string second)
{
    public int RegisteredNames => Registry<string>.Items.Count;                       // a generic type's static
    public bool NamesEqual => EqualityComparer<string>.Default.Equals(first, second);  // EqualityComparer<T>.Default
}

public sealed class Guarded(int[] values)
{
    public int SafeTenth
    {
        get
        {
            try { return values[10]; }
            catch (IndexOutOfRangeException) { return -1; }
        }
    }

    public string CaughtByBase
    {
        get
        {
            try { throw new InvalidOperationException("bad state"); }
            catch (SystemException e) { return "caught: " + e.Message; }
        }
    }

    public int CaughtByFilter
    {
        get
        {
            try { return values[0] / (values[0] - values[0]); }
            catch (Exception e) when (e is DivideByZeroException) { return -3; }
        }
    }

    public int Unmatched
    {
        get
        {
            try { return values[10]; }
            catch (DivideByZeroException) { return -2; }
        }
    }
}
