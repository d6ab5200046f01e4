// The memory cgroup headroom on fake /proc and /sys trees: v1 and v2, nested limits, page cache.
using PyInspect.Heap;
using Xunit;

namespace PyInspect.Tests;

public sealed class MemoryBudgetTests : IDisposable
{
    private const long MiB = 1 << 20;
    private readonly string _root = Directory.CreateTempSubdirectory("memory-budget-").FullName;

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private void Write(string path, string text)
    {
        string file = Path.Join(_root, path);
        Directory.CreateDirectory(Path.GetDirectoryName(file)!);
        File.WriteAllText(file, text);
    }

    private void Mounts(string cgroup, params string[] mounts)
    {
        Write("proc/self/cgroup", cgroup);
        Write("proc/self/mountinfo", string.Join('\n', mounts));
    }

    private const string V1Memory = "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory";
    private const string V2 = "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw";

    private void V1Level(string folder, long limit, long usage, long inactiveFile)
    {
        Write($"sys/fs/cgroup/memory/{folder}/memory.limit_in_bytes", $"{limit}\n");
        Write($"sys/fs/cgroup/memory/{folder}/memory.usage_in_bytes", $"{usage}\n");
        Write($"sys/fs/cgroup/memory/{folder}/memory.stat", $"inactive_file 1\ntotal_inactive_file {inactiveFile}\n");
    }

    private void V2Level(string folder, string max, long current, long inactiveFile, string high = "max")
    {
        Write($"sys/fs/cgroup/unified/{folder}/memory.max", max + "\n");
        Write($"sys/fs/cgroup/unified/{folder}/memory.high", high + "\n");
        Write($"sys/fs/cgroup/unified/{folder}/memory.current", $"{current}\n");
        Write($"sys/fs/cgroup/unified/{folder}/memory.stat", $"active_file 5\ninactive_file {inactiveFile}\n");
    }

    [Fact]
    public void No_cgroup_limit_leaves_the_machine_s_memory()
    {
        Mounts("4:memory:/job\n0::/\n", V1Memory, V2);
        V1Level("", 9223372036854771712, 900 * MiB, 0);
        V1Level("job", 9223372036854771712, 100 * MiB, 0);
        Assert.Equal(long.MaxValue, MemoryBudget.CgroupHeadroom(_root));
    }

    [Fact]
    public void V1_limit_less_the_working_set_the_inactive_file_pages_not_counted()
    {
        Mounts("9:name=systemd:/\n4:memory:/job\n0::/\n", V1Memory, V2);
        V1Level("", 9223372036854771712, 900 * MiB, 0);
        V1Level("job", 512 * MiB, 300 * MiB, 100 * MiB);
        Assert.Equal(312 * MiB, MemoryBudget.CgroupHeadroom(_root));
    }

    [Fact]
    public void The_tightest_level_wins_a_parent_s_limit_over_a_looser_child()
    {
        Mounts("4:memory:/pod/container\n", V1Memory);
        V1Level("pod", 400 * MiB, 350 * MiB, 0);
        V1Level("pod/container", 1024 * MiB, 200 * MiB, 0);
        Assert.Equal(50 * MiB, MemoryBudget.CgroupHeadroom(_root));
    }

    [Fact]
    public void V2_max_and_high_minus_current_and_the_hierarchy()
    {
        Mounts("0::/ci/job\n", V2);
        V2Level("ci", "max", 700 * MiB, 0);
        V2Level("ci/job", $"{2048 * MiB}", 600 * MiB, 50 * MiB, high: $"{1024 * MiB}");
        Assert.Equal(474 * MiB, MemoryBudget.CgroupHeadroom(_root));
        V2Level("ci", $"{800 * MiB}", 700 * MiB, 0);
        Assert.Equal(100 * MiB, MemoryBudget.CgroupHeadroom(_root));
    }

    [Fact]
    public void A_container_s_namespaced_view_starts_at_its_mount_root()
    {
        // Without a cgroup namespace the container sees its full path and its mount's root.
        Mounts("4:memory:/docker/abc\n",
            "35 31 0:32 /docker/abc /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory");
        V1Level("", 256 * MiB, 56 * MiB, 0);
        Assert.Equal(200 * MiB, MemoryBudget.CgroupHeadroom(_root));
    }

    [Fact]
    public void A_working_set_above_its_limit_leaves_nothing()
    {
        Mounts("0::/\n", "30 1 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw");
        Write("sys/fs/cgroup/memory.max", $"{100 * MiB}\n");
        Write("sys/fs/cgroup/memory.current", $"{150 * MiB}\n");
        Assert.Equal(0, MemoryBudget.CgroupHeadroom(_root));
    }

    [Fact]
    public void This_machine_s_figure_is_at_most_its_mem_available() =>
        Assert.True(MemoryBudget.Available() <= MemoryBudget.MemAvailable("/proc/meminfo"));
}
