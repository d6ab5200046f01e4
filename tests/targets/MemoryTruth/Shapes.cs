namespace MemoryTruth;

public struct Point
{
    public int X;
    public int Y;
    public long Z;
}

public class Order
{
    public int Number;
    public decimal Amount;
}

public class Animal
{
    public string Name;
}

public class Dog : Animal
{
    public int Legs;
}

/// <summary>The object_summarize subject: every interesting reason fires on a real value.</summary>
public class Customer
{
    public int Id;
    public string Name;
    public string Email;
    public double Score;
    public float Ratio;
    public decimal Balance;
    public DateTime CreatedAt;
    public DateTime LastLogin;
    public DateTimeOffset Seen;
    public DateTimeOffset NeverSeen;
    public Guid Token;
    public Guid EmptyToken;
    public TimeSpan Age;
    public List<Order> Orders;
    public Dictionary<string, int> Scores;
    public int[] Tags;
    public string Address;
    public Customer Referrer;
}

/// <summary>An object holding a reference to itself.</summary>
public class SelfRef
{
    public int Tag;
    public SelfRef Self;
}

/// <summary>A chain deeper than the depth limit of 10.</summary>
public class Link
{
    public int Depth;
    public Link Next;
}

/// <summary>Holds a struct with a nested struct, for offsets relative to the container.</summary>
public class Box
{
    public byte Flag;
    public Outer Content;
}

public struct Outer
{
    public int A;
    public Point Inner;
}
