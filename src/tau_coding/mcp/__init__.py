"""MCP client: servers from Claude Code-format config, their tools in Tau (see docs/mcp.md)."""
