"""The fence of the enum members read once (service/domain/enum_members.py): each
constant is the very member it copies, each rules module that reads one binds that
same object, and no domain module keeps a copy of its own (`_X = SomeEnum.X`) but
beside the enum it copies from, or where listed below with the reason.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from enum import Enum
from pathlib import Path
from types import ModuleType

import service.domain
from service.domain import enum_members

COPIES_KEPT = {
    ("melds", "_ACES_LOW"): "state.py, which enum_members imports, imports melds.py",
}
"""Copies that cannot come from enum_members without an import cycle. A copy of a
member of an enum defined in the same module (groups' `GroupKind`, melds' `MeldKind`
and `End`) stays beside its enum: enum_members would have to import that module."""
VARIANT_COPIES = {
    ("flow", "_KNOCK"),
    ("flow", "_INDIAN"),
    ("concealed", "_BOATHOUSE"),
    ("concealed", "_WROTHAM"),
    ("turns", "_CLASSIC"),
    ("turns", "_KNOCK"),
    ("turns", "_INDIAN"),
    ("checks", "_CLASSIC"),
}
"""`Variant` members: they go with the variant branches behind the engine seam
(issue 28), so they may be gone; while they are here they are copies too."""


def _copies(module: ModuleType) -> dict[str, tuple[str, str]]:
    """The module-level names `module` binds to `Class.MEMBER` of an Enum class it
    knows: name → (class, member)."""
    source = Path(module.__file__ or "").read_text()
    found = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign):
            continue
        targets = node.targets[0].elts if isinstance(node.targets[0], ast.Tuple) else node.targets
        values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        if len(targets) != len(values):
            continue
        for target, value in zip(targets, values, strict=True):
            if not (
                isinstance(target, ast.Name)
                and isinstance(value, ast.Attribute)
                and isinstance(value.value, ast.Name)
            ):
                continue
            owner = getattr(module, value.value.id, None)
            if isinstance(owner, type) and issubclass(owner, Enum):
                found[target.id] = (value.value.id, value.attr)
    return found


def _domain_modules() -> list[ModuleType]:
    """Every module of the domain, its sub-packages' too."""
    return [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(service.domain.__path__, prefix="service.domain.")
    ]


def test_each_constant_is_the_member_it_copies() -> None:
    copies = _copies(enum_members)
    public = {name for name in vars(enum_members) if name.isupper()}
    assert public == set(copies), "every constant is a member's copy"
    for name, (owner, member) in copies.items():
        value = getattr(enum_members, name)
        assert isinstance(value, Enum)
        assert value is getattr(getattr(enum_members, owner), member), name


def test_the_rules_read_the_same_objects() -> None:
    # `from enum_members import PLAY_PHASE as _PLAY_PHASE` binds the member itself.
    read = set()
    for module in _domain_modules():
        source = Path(module.__file__ or "").read_text()
        for node in ast.parse(source).body:
            if isinstance(node, ast.ImportFrom) and node.module == enum_members.__name__:
                for alias in node.names:
                    local = getattr(module, alias.asname or alias.name)
                    assert local is getattr(enum_members, alias.name)
                    read.add(alias.name)
    assert read == set(_copies(enum_members)), "every constant is read by a rules module"


def test_no_domain_module_keeps_a_copy_of_its_own() -> None:
    kept = set()
    for module in _domain_modules():
        if module is enum_members:
            continue
        short = module.__name__.rsplit(".", 1)[-1]  # where a room moves it, the same
        for name, (owner, member) in _copies(module).items():
            enum = getattr(module, owner)
            assert getattr(module, name) is getattr(enum, member)
            where = (short, name)
            if where in VARIANT_COPIES or enum.__module__ == module.__name__:
                continue  # going with the variant branches, or beside its own enum
            assert where in COPIES_KEPT, (
                f"{short}.{name} = {owner}.{member}: import it from service/domain/enum_members.py"
            )
            kept.add(where)
    assert kept == set(COPIES_KEPT), "a copy kept for a reason is still there"
