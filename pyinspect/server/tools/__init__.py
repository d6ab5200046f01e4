"""MCP tools by area; each module's register(mcp, get_session) adds its tools."""
