// DemoShop: prices a batch of orders every 50 ms, forever. Each batch's report (with its
// orders) lands in ReportCache.Reports and is never removed: the leak the tour finds. Its first argument,
// when given, is a file the program writes its batch count to (the tour reads it).
using DemoShop;

string? statusFile = args.Length > 0 ? args[0] : null;
var pricing = new Pricing(taxRate: 0.2m);
for (int batch = 1; ; batch++)
{
    List<Order> orders = Orders.Make(batch, count: 250);
    decimal total = pricing.Price(orders);
    ReportCache.Remember(new OrderReport(batch, orders, total, $"batch {batch}: {orders.Count} orders"));
    if (statusFile is not null)
        File.WriteAllText(statusFile, batch.ToString());
    Thread.Sleep(50);
}

namespace DemoShop
{
    public sealed record Order(int Id, string Customer, decimal Amount, int Quantity);

    // A report keeps its batch's orders (for a detail view nobody opens): kept forever by
    // the cache, each report keeps 250 orders alive with it.
    public sealed record OrderReport(int Batch, List<Order> Lines, decimal Total, string Title);

    public static class Orders
    {
        private static readonly string[] Customers = ["Ada", "Grace", "Linus", "Barbara", "Ken"];

        public static List<Order> Make(int batch, int count)
        {
            var orders = new List<Order>(count);
            for (int i = 0; i < count; i++)
                orders.Add(new Order(batch * 1000 + i, Customers[i % Customers.Length], 10m + i % 7, 1 + i % 3));
            return orders;
        }
    }

    public sealed class Pricing(decimal taxRate)
    {
        public decimal Price(List<Order> orders)
        {
            decimal net = 0;
            foreach (Order order in orders)
                net += order.Amount * order.Quantity;
            decimal gross = net * (1 + taxRate);  // tour: priced
            return gross;
        }
    }

    public static class ReportCache
    {
        // Every report ever made: nothing removes them, so the cache grows by one per batch.
        public static readonly List<OrderReport> Reports = new();

        public static void Remember(OrderReport report) => Reports.Add(report);
    }
}
