// The web app's domain: orders with the kinds of fields people debug (decimal
// auto-properties, nullable dates, enums and flags, nested lists).
namespace WebApp;

public enum OrderStatus { Pending, Paid, Shipped, Cancelled }

[Flags]
public enum OrderFlags { None = 0, Gift = 1, Express = 2, Fragile = 4 }

public sealed class OrderLine
{
    public string Sku { get; set; } = "";
    public int Quantity { get; set; }
    public decimal UnitPrice { get; set; }
}

public sealed class Order
{
    public int Id { get; set; }
    public string Customer { get; set; } = "";
    public decimal Total { get; set; }
    public DateTime CreatedAt { get; set; }
    public DateTime? ShippedAt { get; set; }
    public OrderStatus Status { get; set; }
    public OrderFlags Flags { get; set; }
    public List<OrderLine> Lines { get; set; } = new();

    public string Describe() => $"{Customer} ({Id})";
}
