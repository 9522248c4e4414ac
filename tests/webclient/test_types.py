"""The web client's modules type-check against the OpenAPI document's types.

The client is plain JavaScript with JSDoc types (no build step: the files the
service serves are the files in the repository). Its `types.d.ts` names the
document's types from `api-types.ts`, which openapi-typescript generates from
the committed document (pinned in tests/clients/package.json, like the tsc
that checks); generated code is never committed. So a change of the contract
that the client does not follow fails here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from service.webclient.served import FILES
from tests.clients.test_typescript_client import generator_complaints
from tests.clients.tools import OPENAPI_PATH, npm_tool, run


def test_the_web_client_type_checks_against_the_generated_types(tmp_path: Path) -> None:
    generator, tsc = npm_tool("openapi-typescript"), npm_tool("tsc")
    for path in FILES.iterdir():
        if path.suffix in {".js", ".ts", ".json"}:
            shutil.copy(path, tmp_path / path.name)
    generated = run([generator, OPENAPI_PATH, "--output", tmp_path / "api-types.ts"])
    printed = (generated.stdout + generated.stderr).strip()
    assert generated.returncode == 0, printed
    assert not generator_complaints(printed), printed

    checked = run([tsc, "--project", tmp_path])
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_tsconfig_checks_every_module_strictly() -> None:
    """A module the tsconfig left out, or a lax option, would let a type error pass."""
    options = json.loads((FILES / "tsconfig.json").read_text(encoding="utf-8"))
    assert options["include"] == ["*.js", "*.d.ts", "api-types.ts"]
    assert not [path.name for path in FILES.iterdir() if path.is_dir()], "modules in one folder"
    checks = options["compilerOptions"]
    assert (checks["checkJs"], checks["strict"], checks["noUncheckedIndexedAccess"]) == (True,) * 3
