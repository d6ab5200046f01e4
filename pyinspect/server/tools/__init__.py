"""MCP tools by area; each module's register(mcp, clients) adds its tools (clients.session() is the calling client's debug session)."""
