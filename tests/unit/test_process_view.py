"""The process view's rules that need no container: container ids in cgroup paths, and
paths inside a root followed through the root's own absolute links."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pyinspect.targets.process_view import ProcessView, _container_id, view_of

ID = "4f1c" + "a" * 60


@pytest.mark.parametrize("cgroup", [
    f"0::/system.slice/docker-{ID}.scope\n",
    f"12:memory:/docker/{ID}\n0::/\n",
    f"0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice/cri-containerd-{ID}.scope\n",
    f"11:pids:/kubepods/besteffort/pod8e2b/{ID}\n",
    f"0::/machine.slice/libpod-{ID}.scope/container\n",
])
def test_the_container_id_is_read_from_each_engines_cgroup_path(cgroup: str) -> None:
    assert _container_id(cgroup) == ID


def test_a_host_cgroup_names_no_container() -> None:
    assert _container_id("0::/user.slice/user-0.slice/session-3.scope\n") is None


def test_absolute_links_inside_a_root_resolve_inside_it(tmp_path: Path) -> None:
    (tmp_path / "opt" / "dotnet-9").mkdir(parents=True)
    (tmp_path / "opt" / "dotnet-9" / "libcoreclr.so").write_bytes(b"")
    (tmp_path / "usr" / "share").mkdir(parents=True)
    os.symlink("/opt/dotnet-9", tmp_path / "usr" / "share" / "dotnet")  # absolute: the container's /opt
    view = ProcessView(pid=1234, namespace_pid=1, root=str(tmp_path), other_pid_namespace=True,
                       other_mount_namespace=True, container_id=None, temp_folder="/tmp")
    reached = view.reach("/usr/share/dotnet/libcoreclr.so")
    assert reached == f"{tmp_path}/opt/dotnet-9/libcoreclr.so" and Path(reached).is_file()
    assert view.inside(reached) == "/opt/dotnet-9/libcoreclr.so"
    assert view.reach_temp("x") == f"{tmp_path}/tmp/x"


def test_pyinspects_own_process_is_seen_unchanged() -> None:
    view = view_of(os.getpid())
    assert (view.in_container, view.root, view.namespace_pid) == (False, "/", os.getpid())
    assert view.reach("/usr/lib") == "/usr/lib"
