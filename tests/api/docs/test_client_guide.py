"""docs/api.md, the client guide, lists every error code the service can answer,
each with its status, and no code it cannot: the rows of `PROBLEM_TYPES`
(service/api/docs/problem_types.py), which tests/api/docs/test_problem_pages.py holds to
every code the service's source answers with."""

from __future__ import annotations

import re
from pathlib import Path

from service.api.docs.problem_types import PROBLEM_TYPES

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "docs" / "api.md"


def documented() -> dict[str, int]:
    """The guide's table of error codes: code to status."""
    section = GUIDE.read_text(encoding="utf-8").split("## Error codes", 1)[1].split("\n## ")[0]
    rows = re.findall(r"^\| `(\w+)` \| (\d{3}) \|", section, flags=re.MULTILINE)
    assert len(rows) == len(dict(rows)), "a code is listed twice"
    return {code: int(status) for code, status in rows}


def test_the_guide_lists_every_code_with_its_status_and_no_other() -> None:
    listed = documented()
    missing = sorted(set(PROBLEM_TYPES) - set(listed))
    assert not missing, f"add to docs/api.md's error codes: {missing}"
    unknown = sorted(set(listed) - set(PROBLEM_TYPES))
    assert not unknown, f"docs/api.md lists codes nothing answers: {unknown}"
    for code, status in listed.items():
        assert PROBLEM_TYPES[code].status == status, code
