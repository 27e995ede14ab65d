"""The models a user can name: the built-in catalogue plus the user's models.json.

Kept apart from model_choice so that ``tau --list-models --all`` loads only this, the
catalogue and the table printer: no session, auth or tool machinery.
"""

from __future__ import annotations

from collections.abc import Callable

from tau_ai.catalog import builtin_models
from tau_ai.model import Model
from tau_coding.config.paths import TauPaths

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~10 ms); mypy knows the name
if TYPE_CHECKING:
    from tau_ai.models_config import ModelsConfig


def listed_models(paths: TauPaths, warn: Callable[[str], object]) -> list[Model]:
    """Every model a user can name, as ``load_models`` gives them; without a models.json the
    models.json reader (and msgspec under it) is not even imported."""
    if not paths.models_file.exists():
        return builtin_models()
    return load_models(paths, warn).models


def load_models(paths: TauPaths, warn: Callable[[str], object]) -> ModelsConfig:
    """Built-in models plus the user's models.json; bad entries are warnings, not failures."""
    from tau_ai.models_config import ModelsConfig, load_models_config
    from tau_coding.common.diagnostics import Diagnostic

    builtins = builtin_models()
    if not paths.models_file.exists():
        return ModelsConfig(builtins, {}, [])
    from tau_coding.config.settings import read_json_object

    problems: list[Diagnostic] = []
    data = read_json_object(paths.models_file, problems)
    for problem in problems:
        warn(str(problem))
    if not data:
        return ModelsConfig(builtins, {}, [])
    config = load_models_config(data, builtins)
    for error in config.errors:
        warn(f"{paths.models_file}: {error.removeprefix('models.json: ')}")
    return config
