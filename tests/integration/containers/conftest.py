"""One containerised MemoryTruth per app kind (the .NET 8 and 9 self-contained apps at /app,
the .NET 10 framework-dependent app with its runtime at /opt/ctr-dotnet, only inside), shared
by the module's tests; the truth it writes into its own /tmp is read through its root."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from container_targets import TRUTH, ContainerTarget
from support.containers import ContainerApp, container_apps, running_container, wait_for_inside_file

APPS = container_apps()


@pytest.fixture(scope="module", params=APPS, ids=[app.name for app in APPS])
def container_target(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ContainerTarget]:
    app: ContainerApp = request.param
    with running_container(app, tmp_path_factory.mktemp(f"ctr-{app.name}"), TRUTH) as container:
        truth = json.loads(wait_for_inside_file(container, TRUTH))
        yield ContainerTarget(app, container, truth)
        assert container.alive(), "the containerised program must still run after every test of its app"
