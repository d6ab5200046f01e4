// Usage: AgentStory [exitCode] — prices three quantities through a short call chain
// (Main -> Checkout.Process -> Checkout.Price) and exits with the given code.
namespace AgentStory;

public sealed class Order
{
    public int Number;
    public decimal Total;
}

public sealed class Customer
{
    public string Name = "";
    public int Id;
    public Customer Referrer;
    public List<Order> Orders = new();
}

public sealed class Checkout
{
    private readonly Customer _customer;
    private int _processed;

    public Checkout(Customer customer)
    {
        _customer = customer;
    }

    public decimal Process(int[] quantities, string label)
    {
        decimal sum = 0;
        foreach (var quantity in quantities)
        {
            sum += Price(quantity); // @bp add
        }
        _processed++;
        Console.WriteLine($"{label}: {sum}");
        return sum;
    }

    private decimal Price(int quantity)
    {
        decimal unit = 2.5m;
        decimal total = unit * quantity; // @bp price
        return total; // @bp price-return
    }
}

public static class Program
{
    public static int Main(string[] args)
    {
        int exitCode = args.Length > 0 ? int.Parse(args[0]) : 0;
        var customer = new Customer { Name = "Ada", Id = 7 };
        customer.Orders.Add(new Order { Number = 1, Total = 10m });
        var checkout = new Checkout(customer);
        int[] quantities = { 1, 2, 3 };
        string label = "first";
        decimal result = checkout.Process(quantities, label); // @bp call
        Console.WriteLine($"result {result}");
        return exitCode; // @bp exit
    }
}
