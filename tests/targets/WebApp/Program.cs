// A minimal API over the order services. Endpoints:
//   GET /health                 "ok"
//   GET /orders/count           the number of orders (10000)
//   GET /orders/{id}            one order, through IOrderRepository (sync)
//   GET /orders/{id}/total      priced by PricingService.ComputeTotalAsync (async)
//   GET /orders/{id}/describe   a string built from properties
//   GET /orders/{id}/summary    the order with the request's HttpContext in reach (the getter corpus)
//   GET /fail/sync              throws synchronously (the framework answers 500)
//   GET /fail/async             throws after an await (the framework answers 500)
using WebApp;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<IOrderRepository, OrderRepository>();
builder.Services.AddSingleton<PricingService>();
builder.Logging.SetMinimumLevel(LogLevel.Information);

var app = builder.Build();

app.MapGet("/health", () => "ok");

app.MapGet("/orders/count", (IOrderRepository repository) => repository.Count);

app.MapGet("/orders/{id:int}", (int id, IOrderRepository repository, ILogger<Program> logger) =>
{
    logger.LogInformation("get order {Id}", id);
    var order = repository.Get(id); // @bp get-order
    return order is null ? Results.NotFound() : Results.Ok(order);
});

app.MapGet("/orders/{id:int}/total", async (int id, PricingService pricing) =>
{
    var total = await pricing.ComputeTotalAsync(id); // @bp get-total
    return Results.Ok(total); // @bp get-total-after
});

app.MapGet("/orders/{id:int}/describe", (int id, IOrderRepository repository) =>
{
    var order = repository.Get(id);
    var text = order.Describe(); // @bp describe
    return text;
});

app.MapGet("/orders/{id:int}/summary", (int id, HttpContext context, IOrderRepository repository, PricingService pricing) =>
{
    var order = repository.Get(id);
    var summary = order is null ? "none" : $"{order.Customer} {order.Total} {context.Request.Path}"; // @bp summary
    return summary;
});

app.MapGet("/fail/sync", (int? id) =>
{
    var which = id ?? 0;
    throw new InvalidOperationException($"sync endpoint failed ({which})"); // @bp fail-sync-throw
});

app.MapGet("/fail/async", async (PricingService pricing) => await pricing.FailAsync(42));

app.Run();
