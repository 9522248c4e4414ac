"""The fence of `give_memory_back` (service/api/live/heap.py): on glibc, `malloc_trim`
is found, called after the closed streams are collected, and hands freed heap back
to the system; where it is missing (musl, no C library to load) nothing is trimmed,
as without it, and nothing fails. Should a C library (or ctypes) stop providing it,
this fails on the machines that count on it.
"""

from __future__ import annotations

import ctypes
import gc
import os
import platform
from typing import Any
from unittest import mock

import pytest

from service.api.live import heap
from service.api.live.hub import COLLECT_AFTER, EventHub, StreamSettings

GLIBC = platform.libc_ver()[0] == "glibc"


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(not GLIBC, reason="malloc_trim is glibc's")
def test_on_glibc_malloc_trim_is_found() -> None:
    trim = heap.find_trim()
    assert trim is not None
    assert trim.__name__ == "malloc_trim"
    assert heap.give_memory_back() is True


@pytest.mark.skipif(not GLIBC, reason="malloc_trim is glibc's")
def test_on_glibc_freed_heap_is_handed_back() -> None:
    # The holes closed streams leave: blocks of the C heap (over pymalloc's 512 bytes)
    # freed, a few kept above them, which `free` alone cannot give back.
    gc.collect()
    heap.give_memory_back()
    before = _rss_mb()
    blocks = [b"x" * 1000 + bytes([n % 256]) for n in range(60_000)]
    kept = blocks[::64]
    held = _rss_mb() - before
    del blocks
    gc.collect()
    freed = _rss_mb() - before
    assert held > 40, f"{held:.0f} MB held"
    assert heap.give_memory_back() is True
    trimmed = _rss_mb() - before
    assert trimmed < freed - held / 2, f"held {held:.0f}, freed {freed:.0f}, trimmed {trimmed:.0f}"
    assert kept


def test_the_closed_streams_collection_gives_memory_back() -> None:
    hub = EventHub(mock.Mock(), mock.Mock(), StreamSettings())
    hub._closed = COLLECT_AFTER
    with mock.patch("service.api.live.hub.give_memory_back") as given_back:
        hub._collect()
    given_back.assert_called_once_with()


def _no_trim(name: str | None) -> Any:
    return object()  # a C library without malloc_trim (musl)


def _no_library(name: str | None) -> Any:
    return ctypes.CDLL("libno-such-c-library.so.0")


@pytest.mark.parametrize(
    "found",
    [
        pytest.param({"load": _no_trim}, id="musl"),
        pytest.param({"load": _no_library}, id="no-library"),
        pytest.param({"find_library": lambda name: 42}, id="no-name"),
    ],
)
def test_where_malloc_trim_is_missing_nothing_is_trimmed_and_nothing_fails(
    found: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert heap.find_trim(**found) is None
    monkeypatch.setattr(heap, "_TRIM", None)
    assert heap.give_memory_back() is False
    hub = EventHub(mock.Mock(), mock.Mock(), StreamSettings())
    hub._collect()  # the collection without a trim, as before it
