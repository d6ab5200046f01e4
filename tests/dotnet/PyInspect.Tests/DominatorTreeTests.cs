// Immediate dominators by Semi-NCA, checked against graphs whose dominators are known by hand.
using PyInspect.Heap;
using Xunit;

namespace PyInspect.Tests;

public sealed class DominatorTreeTests
{
    /// <summary>CSR arrays from an edge list.</summary>
    private static int[] Idom(int nodes, int root, params (int From, int To)[] edges)
    {
        var offsets = new int[nodes + 1];
        foreach (var (from, _) in edges) offsets[from + 1]++;
        for (int i = 0; i < nodes; i++) offsets[i + 1] += offsets[i];
        var targets = new int[edges.Length];
        var next = (int[])offsets.Clone();
        foreach (var (from, to) in edges) targets[next[from]++] = to;
        return DominatorTree.Compute(nodes, offsets, targets, root);
    }

    [Fact]
    public void A_chain_is_dominated_link_by_link() =>
        Assert.Equal([0, 0, 1, 2], Idom(4, 0, (0, 1), (1, 2), (2, 3)));

    [Fact]
    public void A_node_reached_two_ways_is_dominated_by_where_the_ways_split() =>
        Assert.Equal([0, 0, 0, 0], Idom(4, 0, (0, 1), (0, 2), (1, 3), (2, 3)));

    [Fact]
    public void A_cycle_does_not_hide_the_dominator()
    {
        // 0 -> 1 -> 2 -> 3 -> 1, and 2 -> 4: everything below 1 goes through 1, 4 through 2.
        Assert.Equal([0, 0, 1, 2, 2], Idom(5, 0, (0, 1), (1, 2), (2, 3), (3, 1), (2, 4)));
    }

    [Fact]
    public void The_classic_lengauer_tarjan_example()
    {
        // R=0 A=1 B=2 C=3 D=4 E=5 F=6 G=7 H=8 I=9 J=10 K=11 L=12 (Lengauer & Tarjan 1979, figure 1).
        int[] idom = Idom(13, 0,
            (0, 1), (0, 2), (0, 3), (1, 4), (2, 1), (2, 4), (2, 5), (3, 6), (3, 7), (4, 12), (5, 8),
            (6, 9), (7, 9), (7, 10), (8, 5), (8, 11), (9, 11), (10, 9), (11, 9), (11, 0), (12, 8));
        Assert.Equal([0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 7, 0, 4], idom);
    }

    [Fact]
    public void An_unreachable_node_has_no_dominator() =>
        Assert.Equal([0, 0, -1], Idom(3, 0, (0, 1), (2, 1)));
}
