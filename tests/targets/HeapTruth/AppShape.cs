namespace HeapTruth;

/// <summary>A heap shaped like an application's, for benchmarks: a dictionary of customers,
/// each with a name and a list of orders, each order with a string, a decimal, a small
/// array and a back reference to its customer; plus large-object-heap arrays (byte
/// buffers, and arrays of references to recent orders). About 16 objects per customer.</summary>
public static class AppShape
{
    private const int OrdersPerCustomer = 4;
    private const int ObjectsPerCustomer = 4 + OrdersPerCustomer * 3;
    private const int RecentEvery = 20_000;

    public static Dictionary<int, Customer> Customers = new();
    public static List<object> Large = new();

    /// <summary>About objects objects in all; returns how many customers.</summary>
    public static int Grow(long objects)
    {
        int customers = (int)(objects / ObjectsPerCustomer);
        Customers = new Dictionary<int, Customer>(customers);
        var recent = new object[RecentEvery];
        for (int i = 0; i < customers; i++)
        {
            var customer = new Customer { Id = i, Name = $"customer {i}", Orders = new List<Order>(OrdersPerCustomer) };
            for (int j = 0; j < OrdersPerCustomer; j++)
            {
                var order = new Order { Sku = $"SKU-{i}-{j}", Amount = i * 1.25m + j, Lines = new[] { i, j, i + j }, Customer = customer };
                customer.Orders.Add(order);
                if (j == 0)
                    recent[i % RecentEvery] = order;
            }
            Customers[i] = customer;
            if (i % RecentEvery == RecentEvery - 1)
            {
                Large.Add(recent);
                Large.Add(new byte[100_000]);
                recent = new object[RecentEvery];
            }
        }
        return customers;
    }
}

public sealed class Customer
{
    public int Id;
    public string? Name;
    public List<Order>? Orders;
}

public sealed class Order
{
    public string? Sku;
    public decimal Amount;
    public int[]? Lines;
    public Customer? Customer;
}
