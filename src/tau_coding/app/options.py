"""What the command line (or an SDK caller) asks a session for, and the error that means the user
must change something first."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tau_agent.provider import ThinkingLevel


class ConfigurationError(ValueError):
    """The user must change something before Tau can run; the message says what, in one line."""


class MissingCredentials(ConfigurationError):
    """No model has a key (or the chosen one has none); ``Options.keyless`` opens anyway."""


@dataclass
class Options:
    """What the command line (or an SDK caller) asks for; every field optional."""

    provider: str | None = None
    model: str | None = None
    thinking: ThinkingLevel | None = None
    api_key: str | None = None
    continue_session: bool = False
    session: str | None = None
    session_dir: str | None = None
    no_session: bool = False
    tools: str | None = None
    no_tools: bool = False
    system_prompt: str | None = None
    append_system_prompt: Sequence[str] = ()
    no_builtin_tools: bool = False
    no_skills: bool = False
    no_prompt_templates: bool = False
    no_context_files: bool = False
    skills: Sequence[str] = ()  # --skill paths, besides those discovered
    prompt_templates: Sequence[str] = ()  # --prompt-template paths
    fork: str | None = None  # --fork: copy this session into a new one
    max_turns: int | None = None
    warnings: list[str] = field(default_factory=list)
    # extensions and shell hooks (tau_coding.app.extension_setup)
    extensions: Sequence[str] = ()
    no_extensions: bool = False
    trust_project: bool = False
    extension_args: Sequence[str] = ()  # command-line words for flags that extensions declare
    # permissions (tau_coding.permissions): --permission-mode, and whether someone can be asked
    # (the TUI and RPC can; print and JSON cannot), which picks the default mode.
    permission_mode: str | None = None
    can_ask: bool = False
    trace_file: str | None = None  # spans as JSON lines (tau_coding.tracing)
    no_checkpoints: bool = False  # --no-checkpoints: no snapshots of the files for /rewind
    # Open without a key (the interactive mode, so /login and /model can fix it): the default
    # model is chosen when none has a key, and its requests fail until a key is given.
    keyless: bool = False
