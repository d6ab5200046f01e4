// Services reached through DI and interfaces, as a real app calls them: stepping into
// `_repository.Get(id)` must arrive in OrderRepository.Get.
namespace WebApp;

public interface IOrderRepository
{
    Order Get(int id);
    int Count { get; }
    IReadOnlyList<Order> All { get; }
}

public sealed class OrderRepository : IOrderRepository
{
    private readonly List<Order> _orders = new();
    private readonly Dictionary<int, Order> _byId = new();

    public OrderRepository()
    {
        var start = new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        for (int i = 1; i <= 10_000; i++)
        {
            var order = new Order
            {
                Id = i,
                Customer = "customer-" + (i % 97),
                Total = i % 250 + 0.25m,
                CreatedAt = start.AddMinutes(i),
                ShippedAt = i % 3 == 0 ? start.AddDays(1).AddMinutes(i) : null,
                Status = (OrderStatus)(i % 4),
                Flags = (OrderFlags)(i % 8),
            };
            order.Lines.Add(new OrderLine { Sku = "SKU-" + (i % 13), Quantity = i % 5 + 1, UnitPrice = 1.5m });
            _orders.Add(order);
            _byId[i] = order;
        }
    }

    public int Count => _orders.Count;

    public IReadOnlyList<Order> All => _orders;

    public Order Get(int id)
    {
        var found = _byId.TryGetValue(id, out var order); // @bp repository-get
        return found ? order : null;
    }
}

public sealed class PricingService
{
    private readonly IOrderRepository _repository;
    private readonly ILogger<PricingService> _logger;

    public PricingService(IOrderRepository repository, ILogger<PricingService> logger)
    {
        _repository = repository;
        _logger = logger;
    }

    public async Task<decimal> ComputeTotalAsync(int id)
    {
        var order = _repository.Get(id); // @bp compute-first
        await Task.Delay(10);
        decimal total = 0;
        foreach (var line in order.Lines)
        {
            total += line.Quantity * line.UnitPrice;
        }
        await Task.Yield();
        _logger.LogInformation("priced order {Id}: {Total}", id, total);
        return total; // @bp compute-last
    }

    public async Task<decimal> FailAsync(int id)
    {
        await Task.Delay(5);
        throw new InvalidOperationException($"pricing failed for order {id}"); // @bp fail-async-throw
    }
}
