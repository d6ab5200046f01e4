"""The dump reader's socket framing (pyinspect.heap.frames): the framing of
multiprocessing.connection, which the reader's Host/Frames.cs reads and writes, both ways and in
both header forms; the other end's close reads as EOFError."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection

import pytest

from pyinspect.heap.frames import Frames


def _send_all(send: Callable[[bytes], None], messages: list[bytes]) -> None:
    for message in messages:
        send(message)


def test_messages_cross_to_and_from_a_multiprocessing_connection() -> None:
    ours, theirs = socket.socketpair()
    frames, connection = Frames(ours), Connection(theirs.detach())
    sizes = [0, 1, 300, 1 << 20]  # the last one larger than the socket's buffer
    sent = [bytes([n % 251]) * n for n in sizes]
    writer = threading.Thread(target=_send_all, args=(frames.send_bytes, sent))
    writer.start()
    assert [connection.recv_bytes() for _ in sizes] == sent
    writer.join()
    writer = threading.Thread(target=_send_all, args=(connection.send_bytes, sent))
    writer.start()
    assert frames.poll(10)
    assert [frames.recv_bytes() for _ in sizes] == sent
    writer.join()
    frames.close()
    connection.close()


def test_the_long_header_form_is_read() -> None:
    """-1, then an 8-byte length: what Host/Frames.cs writes for 2 GiB or more."""
    ours, theirs = socket.socketpair()
    frames = Frames(ours)
    theirs.sendall(b"\xff\xff\xff\xff" + (5).to_bytes(8, "big") + b"hello")
    assert frames.recv_bytes() == b"hello"
    theirs.close()
    frames.close()


def test_the_other_ends_close_is_eof_and_a_silent_end_polls_false() -> None:
    ours, theirs = socket.socketpair()
    frames = Frames(ours)
    assert not frames.poll(0.01)
    theirs.sendall(b"\x00\x00\x00\x09abc")  # a message cut short
    theirs.close()
    assert frames.poll(1)
    with pytest.raises(EOFError):
        frames.recv_bytes()
    frames.close()
