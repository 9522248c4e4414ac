"""The log handler: lines written in order by its own thread, a warning at once, the
rest by the time it closes."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from service.api.transport.log_writer import BatchedStreamHandler
from tests.audit_stream.clients import wait_for


@pytest.fixture
def output() -> io.StringIO:
    return io.StringIO()


def _logger(handler: logging.Handler) -> Iterator[logging.Logger]:
    logger = logging.getLogger(f"tests.log_writer.{id(handler)}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        yield logger
    finally:
        logger.removeHandler(handler)
        handler.close()


@pytest.fixture
def soon(output: io.StringIO) -> Iterator[logging.Logger]:
    """A logger whose handler writes every 10 ms."""
    yield from _logger(BatchedStreamHandler(output, interval=0.01))


@pytest.fixture
def late(output: io.StringIO) -> Iterator[logging.Logger]:
    """A logger whose handler would wait a minute before it writes."""
    yield from _logger(BatchedStreamHandler(output, interval=60))


def test_lines_are_written_in_the_order_they_were_logged(
    soon: logging.Logger, output: io.StringIO
) -> None:
    for number in range(100):
        soon.info("line %d", number)
    wait_for(lambda: output.getvalue().count("\n") == 100)
    assert output.getvalue().splitlines() == [f"line {number}" for number in range(100)]


def test_a_warning_is_written_at_once(late: logging.Logger, output: io.StringIO) -> None:
    late.info("before")
    late.warning("careful")
    wait_for(lambda: output.getvalue() == "before\ncareful\n", timeout=10)


def test_closing_writes_every_line_left(late: logging.Logger, output: io.StringIO) -> None:
    late.info("one")
    late.info("two")
    assert output.getvalue() == ""
    handler = late.handlers[0]
    handler.close()
    assert output.getvalue() == "one\ntwo\n"
