namespace Samples.Symbols;

public class Animal
{
    public string Name { get; set; } = "generic";
    public int legs;
    public const int MaxLegs = 8;
    public static int Count;
}

public class Dog : Animal
{
    public bool Barks { get; init; } = true;

    public class Collar
    {
        public string Describe(int size)
        {
            string text = "collar " + size; // @bp nested
            return text;
        }
    }
}

public class Box<T> : List<T>
{
    public T First(T fallback)
    {
        T result = fallback; // @bp generic
        return result;
    }
}

public static class Program
{
    public static int Main(string[] args)
    {
        int total = 0;
        // @bp before_code

        total += 1; // @bp after_blank
        for (int i = 0; i < 2; i++)
        {
            int squared = i * i; // @bp loop_body
            total += squared;
        }
        var dog = new Dog { Name = "rex" };
        var box = new Box<int>();
        string label = new Dog.Collar().Describe(3);
        total += box.First(5) + label.Length + dog.Name.Length;
        return total == 0 ? 1 : 0; // @bp last
    }
}
