// Getters and methods with no side effect, one of each shape C# code is full of: an IL
// interpreter must answer them from memory exactly as func-eval does.
using System.Globalization;

namespace GetterTruth;

public class Person(string first, string last, int age)
{
    private readonly string _first = first;
    private readonly List<string> _items = [];

    public string First => _first;                       // expression-bodied: a field
    public string Last { get; set; } = last;             // auto-property
    public int Age { get; } = age;                       // get-only auto-property
    public string FullName => First + " " + Last;        // concatenation through other getters
    public int ItemCount => _items.Count;                // a BCL getter on a field
    public bool IsEmpty => ItemCount == 0;               // a getter calling a getter
    public string Initials => $"{_first[0]}{Last[0]}";   // interpolation, string indexer
    public bool IsAdult => Age >= 18;

    /// <summary>A loop over the characters of a computed string.</summary>
    public int LetterCount
    {
        get
        {
            int letters = 0;
            foreach (char c in FullName)
                if (char.IsLetter(c)) letters++;
            return letters;
        }
    }

    /// <summary>A counted loop and a local accumulator.</summary>
    public int SumOfSquaresToAge
    {
        get
        {
            int sum = 0;
            for (int i = 1; i <= Age; i++) sum += i * i;
            return sum;
        }
    }

    public string? Nickname => Age > 100 ? "elder" : null;   // a null from a string-returning getter

    public void Add(string item) => _items.Add(item);
    public string Greet(string greeting) => greeting + ", " + First + "!";   // a method with an argument
}

public abstract class Shape
{
    public abstract double Area { get; }
    public virtual string Kind => "shape";
    public string Describe => Kind + " of area " + Area.ToString("F2", CultureInfo.InvariantCulture);  // non-virtual calling virtuals
    public virtual int Corners => 0;
}

public sealed class Circle(double radius) : Shape
{
    private readonly double _radius = radius;
    public override double Area => Math.PI * _radius * _radius;
    public override string Kind => "circle";
}

public class Rectangle(int width, int height) : Shape
{
    protected readonly int Width = width;
    protected readonly int Height = height;
    public override double Area => Width * Height;
    public override string Kind => "rectangle";
    public override int Corners => 4;
}

public sealed class Square(int side) : Rectangle(side, side)
{
    public override string Kind => "square";           // overrides an override; Corners inherited
    public int Side => Width;
}

public interface INamed
{
    string Name { get; }
    int Rank { get; }
}

public sealed class Employee(string name, int level) : INamed
{
    private readonly int _level = level;
    public string Name => name.ToUpperInvariant();      // implicit interface implementation
    int INamed.Rank => _level * 10;                     // explicit interface implementation
    public int Level => _level;
    public int RankViaInterface => ((INamed)this).Rank;          // an interface call to the explicit implementation
    public static int RankOf(INamed named) => named.Rank;        // the same from a static method's argument
}

public sealed class Box<T>(T value)
{
    private readonly T _value = value;
    public T Value => _value;                            // a generic field through a getter
    public bool HasValue => _value is not null;          // box + null check on a type argument
    public string Text => "box of " + _value;            // string.Concat(object, object)
}

public sealed class Pair<TKey, TValue>(TKey key, TValue value)
{
    public TKey Key { get; } = key;
    public TValue Value { get; } = value;
    public string Text => $"{Key}={Value}";              // interpolation over type arguments
    public bool SameText => Key.ToString() == Value.ToString();  // constrained virtual calls
}

public struct Money(decimal amount, string currency)
{
    private readonly decimal _amount = amount;
    private readonly string _currency = currency;
    public readonly decimal Amount => _amount;
    public readonly string Currency => _currency;
    public readonly bool IsZero => _amount == 0m;
    public readonly decimal WithTax => Math.Round(_amount * 1.2m, 2);   // decimal math
    public readonly string Display => _currency + " " + _amount.ToString(CultureInfo.InvariantCulture);
}

public struct Point(int x, int y)
{
    public int X = x;
    public int Y = y;
    public readonly int LengthSquared => X * X + Y * Y;
    public readonly Point Doubled => new(X * 2, Y * 2);  // a struct made by the getter
    public readonly int DoubledX => Doubled.X;
}

public static class Settings
{
    private static int _level = 3;
    public static int Level => _level;                   // a static getter over a static field
    public static string Mode { get; } = "fast";         // a static auto-property
    public static int LevelSquared => Level * Level;
    public static int Gcd(int a, int b) => b == 0 ? a : Gcd(b, a % b);  // recursion
}
