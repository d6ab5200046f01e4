namespace PyInspect.Heap;

/// <summary>
/// The memory this process may still take without swapping or being killed: the machine's
/// MemAvailable, or less when its memory cgroup (a container's or a CI job's limit) leaves
/// less. Each cgroup level from ours up to the hierarchy's mount is checked (a pod's limit sits
/// above its container's) and the tightest wins; cgroup v1 (memory.limit_in_bytes) and v2
/// (memory.max, and memory.high, above which the kernel throttles and reclaims) alike.
/// A level's use is its working set, usage minus its inactive file pages (as kubelet and
/// `docker stats` count it): clean page cache such as a dump read earlier is dropped under
/// the limit rather than killing anyone, while the active file pages (the dump being read
/// now) are the analysis's own working set and stay counted.
/// </summary>
public static class MemoryBudget
{
    /// <summary>A limit at or above this is none (v1 writes about 2^63 when unlimited).</summary>
    private const long NoLimit = 1L << 62;

    /// <summary>Bytes this process may still take: the smaller of MemAvailable and the
    /// tightest cgroup headroom.</summary>
    public static long Available() => Math.Min(MemAvailable("/proc/meminfo"), CgroupHeadroom("/"));

    /// <summary>MemAvailable from a meminfo file (what can be allocated without swapping).</summary>
    public static long MemAvailable(string meminfo)
    {
        foreach (string line in File.ReadLines(meminfo))
            if (line.StartsWith("MemAvailable:", StringComparison.Ordinal))
                return long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1]) * 1024;
        return long.MaxValue;
    }

    /// <summary>The least headroom (limit minus working set) over this process's memory
    /// cgroups and their ancestors, long.MaxValue when none has a limit. root is "/" but
    /// for tests, which give a tree holding proc/self/cgroup, proc/self/mountinfo and the mounts.</summary>
    public static long CgroupHeadroom(string root)
    {
        string cgroupFile = Path.Join(root, "proc/self/cgroup");
        string mountinfo = Path.Join(root, "proc/self/mountinfo");
        if (!File.Exists(cgroupFile) || !File.Exists(mountinfo))
            return long.MaxValue;
        string[] memberships = File.ReadAllLines(cgroupFile);
        long least = long.MaxValue;
        foreach (string mount in File.ReadLines(mountinfo))
        {
            var (v2, mountRoot, mountPoint) = CgroupMount(mount);
            string? path = mountPoint is null ? null : Membership(memberships, v2);
            if (path is null)
                continue;
            string top = Path.Join(root, mountPoint);
            string relative = path.StartsWith(mountRoot!, StringComparison.Ordinal) ? path[mountRoot!.Length..] : "";
            least = Math.Min(least, Headroom(top, relative.Trim('/'), v2));
        }
        return least;
    }

    /// <summary>From a mountinfo line: whether it mounts cgroup v2 or v1's memory controller,
    /// the hierarchy's root it shows and where (null when it is neither).</summary>
    private static (bool V2, string? Root, string? Point) CgroupMount(string line)
    {
        string[] fields = line.Split(' ');
        int dash = Array.IndexOf(fields, "-");
        if (dash < 5 || fields.Length < dash + 4)
            return (false, null, null);
        string type = fields[dash + 1];
        if (type == "cgroup2")
            return (true, fields[3], fields[4]);
        bool memory = type == "cgroup" && fields[dash + 3].Split(',').Contains("memory");
        return memory ? (false, fields[3], fields[4]) : (false, null, null);
    }

    /// <summary>This process's path in the v2 hierarchy ("0::path") or v1's memory one.</summary>
    private static string? Membership(string[] lines, bool v2)
    {
        foreach (string line in lines)
        {
            string[] parts = line.Split(':', 3);
            if (parts.Length < 3)
                continue;
            if (v2 ? parts[0] == "0" && parts[1] == "" : parts[1].Split(',').Contains("memory"))
                return parts[2];
        }
        return null;
    }

    /// <summary>The least headroom from the cgroup at top/relative up to top itself.</summary>
    private static long Headroom(string top, string relative, bool v2)
    {
        long least = long.MaxValue;
        string[] names = relative.Length == 0 ? [] : relative.Split('/');
        for (int depth = names.Length; depth >= 0; depth--)
        {
            string folder = Path.Join([top, .. names[..depth]]);
            long limit = v2 ? Math.Min(Read(folder, "memory.max"), Read(folder, "memory.high"))
                            : Read(folder, "memory.limit_in_bytes");
            if (limit >= NoLimit)
                continue;
            long usage = Read(folder, v2 ? "memory.current" : "memory.usage_in_bytes");
            long inactive = Stat(folder, v2 ? "inactive_file" : "total_inactive_file");
            least = Math.Min(least, Math.Max(0, limit - Math.Max(0, usage - inactive)));
        }
        return least;
    }

    /// <summary>A cgroup file's number; long.MaxValue for "max" or a file that is not there
    /// (v2's root has no memory.max).</summary>
    private static long Read(string folder, string name)
    {
        string file = Path.Join(folder, name);
        if (!File.Exists(file))
            return long.MaxValue;
        string text = File.ReadAllText(file).Trim();
        return long.TryParse(text, out long value) ? value : long.MaxValue;
    }

    /// <summary>A key's value in the cgroup's memory.stat, 0 when absent.</summary>
    private static long Stat(string folder, string key)
    {
        string file = Path.Join(folder, "memory.stat");
        if (!File.Exists(file))
            return 0;
        foreach (string line in File.ReadLines(file))
            if (line.StartsWith(key + " ", StringComparison.Ordinal))
                return long.Parse(line.AsSpan(key.Length + 1));
        return 0;
    }
}
