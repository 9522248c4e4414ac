"""One version: the package's (pyproject.toml) is the OpenAPI document's
`info.version`, and the newest entry of CHANGELOG.md."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from service.cli import openapi_document

ROOT = Path(__file__).resolve().parents[2]


def package_version() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    version: str = project["project"]["version"]
    return version


def test_the_openapi_document_carries_the_package_version() -> None:
    assert json.loads(openapi_document())["info"]["version"] == package_version()
    committed = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    assert committed["info"]["version"] == package_version()


def test_the_changelog_starts_with_the_package_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    # Keep a Changelog: `## [Unreleased]` may come first, then `## [X.Y.Z] - date`.
    versions = re.findall(r"^## \[(\d[^\]]*)\]", changelog, flags=re.MULTILINE)
    assert versions, "CHANGELOG.md names no version"
    assert versions[0] == package_version()
