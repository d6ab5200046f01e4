namespace HeapTruth;

public class Animal
{
    public int Legs;
    public string Name;
    public long Id;
}

public struct Point
{
    public int X;
    public int Y;
    public long Z;
}

public enum Mood : short { Calm = 3, Happy = 7 }

public class Dog : Animal
{
    public double Weight;
    public Point Position;
    public Dog Self;
    public Animal Friend;
    public bool Good;
    public char Initial;
    public Mood Mood;
}

public class Holder
{
    public int[] Numbers;
    public int[,] Grid;
    public int[][] Jagged;
    public string[] Words;
    public Point[] Points;
    public string Text;
}

public class Item
{
    public int Value;
}

public static class Registry
{
    public static int Counter = 42;
    public static string Label = "static ✓";
    public static Animal Nobody;
}
