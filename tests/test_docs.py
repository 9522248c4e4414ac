"""The documentation a newcomer follows is all in the repository: nothing points
to a rules or contract page outside it, and every link between the pages
(README.md, CHANGELOG.md, docs/, deploy/README.md) leads to a file and a
heading that exist."""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from service.config import SERVICE_NAME

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
    ROOT / "deploy" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
SEARCHED = ("service", "tests", "bench", "docs", "deploy", "scripts", "openapi", ".ci")
OUTSIDE = re.compile(r"(?<![\w/])(RULES|API)\.md|\(shared\)")
"""The rules and contract pages as the service's first sessions knew them, kept
outside the repository."""
LINK = re.compile(r"\]\(([^)\s]+)\)")
PICTURES = frozenset({".png"})
"""Files that are no text to search (the README's screenshot in docs/)."""


def searched_files() -> list[Path]:
    """The repository's own files there (as git tracks them: not installed packages
    such as tests/clients/node_modules, nor caches)."""
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "Dockerfile"]
    tracked = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *SEARCHED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    files += [ROOT / name for name in sorted(tracked) if ROOT / name != Path(__file__)]
    return [path for path in files if path.is_file() and path.suffix not in PICTURES]


def test_nothing_points_to_rules_or_a_contract_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in searched_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not found, "point into docs/ instead:\n" + "\n".join(found)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    # Headings outside fenced code blocks.
    prose = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return {slug(heading) for heading in re.findall(r"^#+ (.+)$", prose, flags=re.MULTILINE)}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_between_the_pages_leads_somewhere(page: Path) -> None:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # another site
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no such heading")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_service_has_one_name_for_the_rummy_family_everywhere() -> None:
    """The README's title, the package's description and the OpenAPI document's
    title name the service alike, the family of games it plays, not one of them."""
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert SERVICE_NAME == "Rummy game service"
    assert readme.splitlines()[0] == f"# {SERVICE_NAME}"
    assert document["info"]["title"] == SERVICE_NAME
    assert project["description"].startswith(f"{SERVICE_NAME}: the rummy family")
    for described in (
        readme.split("\n\n")[1],
        project["description"],
        document["info"]["description"],
    ):
        assert "Straight Rummy" in described, described
        assert "Indian Rummy" in described, described
