"""Tau's built-in coding tools: read, write, edit, bash, grep, find, ls.

They import only tau_agent's tool vocabulary and the standard library (Pillow lazily, for
downscaling images), so an embedding program can use them without the rest of Tau.
"""

from tau_coding.tools.builtin import ALL_TOOLS, DEFAULT_TOOLS, create_coding_tools, select_tools
from tau_coding.tools.config import ToolSettings

__all__ = ["ALL_TOOLS", "DEFAULT_TOOLS", "ToolSettings", "create_coding_tools", "select_tools"]
