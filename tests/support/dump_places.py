"""The places a dump's DAC can be in, laid out for tests: the runtime packs in the machine's
NuGet packages folder (read only), a symbol store served over real HTTP on 127.0.0.1, a
folder NuGet feed, and planted wrong DACs (another runtime build under the right names)."""

from __future__ import annotations

import os
import shutil
import struct
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

PACK_ID = "microsoft.netcore.app.runtime.linux-x64"
PACK_VERSIONS = {"net8.0": "8.0.31", "net9.0": "9.0.20", "net10.0": "10.0.12"}
DAC, CORECLR = "libmscordaccore.so", "libcoreclr.so"


def machine_packages() -> Path:
    return Path.home() / ".nuget" / "packages"


def pack_native(version: str) -> Path:
    """The runtime pack's native folder (DAC and libcoreclr.so) in the machine's packages folder."""
    folder = machine_packages() / PACK_ID / version / "runtimes" / "linux-x64" / "native"
    if not (folder / DAC).is_file():
        pytest.fail(f"the runtime pack {PACK_ID} {version} is not in {machine_packages()}; run `python3 build.py`")
    return folder


def pack_nupkg(version: str) -> Path:
    nupkg = machine_packages() / PACK_ID / version / f"{PACK_ID}.{version}.nupkg"
    if not nupkg.is_file():
        pytest.fail(f"{nupkg} is missing; run `python3 build.py`")
    return nupkg


def other_version(version: str) -> str:
    """A runtime pack of another build, for planting a wrong DAC under the right name."""
    return next(v for v in PACK_VERSIONS.values() if v != version)


def build_id(elf: Path) -> str:
    """The GNU build id of an ELF64 file (its NT_GNU_BUILD_ID note), lower-case hex."""
    data = elf.read_bytes()
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for index in range(phnum):
        kind, = struct.unpack_from("<I", data, phoff + index * phentsize)
        if kind != 4:  # PT_NOTE
            continue
        offset, = struct.unpack_from("<Q", data, phoff + index * phentsize + 8)
        size, = struct.unpack_from("<Q", data, phoff + index * phentsize + 0x20)
        end = offset + size
        while offset + 12 <= end:
            name_size, desc_size, note_type = struct.unpack_from("<III", data, offset)
            desc = offset + 12 + (name_size + 3) // 4 * 4
            if note_type == 3 and data[offset + 12:offset + 15] == b"GNU":
                return data[desc:desc + desc_size].hex()
            offset = desc + (desc_size + 3) // 4 * 4
    raise AssertionError(f"{elf} has no build id")


def portable_pdb_guid(pdb: Path) -> str:
    """The GUID of a portable PDB's id (the first 16 bytes of its #Pdb stream), "N" format."""
    data = pdb.read_bytes()
    assert data[:4] == b"BSJB", f"{pdb} is not a portable PDB"
    version_length, = struct.unpack_from("<I", data, 12)
    offset = 16 + version_length + 2
    streams, = struct.unpack_from("<H", data, offset)
    offset += 2
    for _ in range(streams):
        start, _size = struct.unpack_from("<II", data, offset)
        name_end = data.index(b"\0", offset + 8)
        name = data[offset + 8:name_end].decode()
        offset = offset + 8 + ((name_end - offset - 8) // 4 + 1) * 4
        if name == "#Pdb":
            raw = data[start:start + 16]
            return str(uuid.UUID(bytes_le=raw)).replace("-", "")
    raise AssertionError(f"{pdb} has no #Pdb stream")


def fill_pdb_store(store: Path, pdb: Path) -> str:
    """A portable PDB in the symbol store layout (SSQP: name/<guid>FFFFFFFF/name); its key."""
    name = pdb.name.lower()
    key = f"{name}/{portable_pdb_guid(pdb)}FFFFFFFF/{name}"
    (store / key).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(pdb, store / key)
    return key


def plant_runtime(folder: Path, version: str) -> Path:
    """A DAC and its libcoreclr.so of runtime ``version`` copied into ``folder``; the DAC's path."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in (DAC, CORECLR):
        shutil.copyfile(pack_native(version) / name, folder / name)
    return folder / DAC


def fill_symbol_store(store: Path, coreclr_build_id: str, files_of: str) -> None:
    """The store layout SOS reads: the DAC under the runtime's build id (coreclr- key) and the
    libcoreclr.so under its own, both taken from runtime pack ``files_of``."""
    native = pack_native(files_of)
    for name, key in ((DAC, f"elf-buildid-coreclr-{coreclr_build_id}"), (CORECLR, f"elf-buildid-{coreclr_build_id}")):
        target = store / name / key / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(native / name, target)


@dataclass
class Served:
    """A running HTTP server: its base URL and the paths it was asked for."""

    url: str
    requested: list[str] = field(default_factory=list)


@contextmanager
def http_folder(folder: Path) -> Iterator[Served]:
    """A real HTTP server on 127.0.0.1 serving ``folder``. Stopped on exit."""
    served = Served("")

    class Handler(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            served.requested.append(f"{self.path} {args[1] if len(args) > 1 else ''}".strip())

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(folder)))
    served.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, name="symbol-store", daemon=True)
    thread.start()
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def nuget_config(folder: Path, sources: list[str]) -> Path:
    """A nuget.config in ``folder`` naming only ``sources`` (``<clear/>`` drops the user's)."""
    adds = "".join(f'    <add key="source{index}" value="{source}" />\n' for index, source in enumerate(sources))
    config = folder / "nuget.config"
    config.write_text(f'<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <packageSources>\n'
                      f'    <clear />\n{adds}  </packageSources>\n</configuration>\n')
    return config


def loaded(files: list[Path], pid: int | None = None) -> list[Path]:
    """Those of ``files`` mapped into process ``pid`` (default this one; a dump's DAC is
    loaded by its reader process, HeapReader.reader_pid), by device and inode: a path alone
    may name a file loaded before and since replaced."""
    mapped = set()
    for line in Path(f"/proc/{pid or 'self'}/maps").read_text().splitlines():
        fields = line.split()
        if len(fields) >= 6 and fields[4] != "0":
            major, minor = (int(part, 16) for part in fields[3].split(":"))
            mapped.add((os.makedev(major, minor), int(fields[4])))
    return [f for f in files if f.exists() and (f.stat().st_dev, f.stat().st_ino) in mapped]
