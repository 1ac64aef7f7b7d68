"""A strict MCP server for the struct-json-bridge demo (stdio transport).

Every integer parameter is a Pydantic StrictInt: 5.0 is rejected, only the
integer literal 5 is accepted. Python ints have arbitrary precision, so an id
such as 9007199254740993 arrives exactly as the client wrote it. Each tool
echoes back what it received as structured content, so the client can check
that every argument arrived exactly as the model wrote it; `query_rows` also
returns a row set (ids above 2**53) under an outputSchema.

Runs on the official MCP Python SDK: MCPServer (mcp >= 2) or FastMCP (mcp 1.x).
"""

from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, StrictBool, StrictFloat, StrictInt, StrictStr

try:
    from mcp.server.mcpserver import MCPServer as Server  # mcp >= 2
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef]

server = Server("strict-demo")


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class Position(Strict):
    file: StrictStr
    line: StrictInt
    column: StrictInt


class Assignee(Strict):
    user_id: StrictInt
    team_id: Optional[StrictInt] = None


class Ticket(Strict):
    title: StrictStr
    assignee: Assignee
    location: Position
    estimate_hours: StrictFloat
    watcher_ids: list[StrictInt]
    parent_id: Optional[StrictInt] = None


class Echo(BaseModel):
    """What a tool received, after strict validation (ints stay ints, floats stay floats)."""

    tool: str
    received: dict[str, Any]


class Query(BaseModel):
    table: str
    min_id: int
    limit: int


class RowSet(BaseModel):
    """A database result: the place big ids live."""

    query: Query
    columns: list[str]
    rows: list[tuple[StrictInt, StrictStr, StrictFloat]]


USERS: list[tuple[int, str, float]] = [
    (4821, "Linus", 0.25),
    (9007199254740993, "Ada", 1.0),
    (9007199254740995, "Grace", 0.5),
    (18014398509481985, "Edsger", 2.0),
]


@server.tool()
def goto_definition(file: StrictStr, line: StrictInt, column: StrictInt) -> Echo:
    """Jump to the definition of the symbol at file:line:column (1-based)."""
    return Echo(tool="goto_definition", received={"file": file, "line": line, "column": column})


@server.tool()
def get_user(user_id: StrictInt, include_deleted: StrictBool = False) -> Echo:
    """Fetch one user by id."""
    return Echo(tool="get_user", received={"user_id": user_id, "include_deleted": include_deleted})


@server.tool()
def set_alert(
    metric: StrictStr,
    threshold: StrictFloat,
    window_seconds: StrictInt,
    severity: Optional[StrictInt] = None,
) -> Echo:
    """Alert when `metric` exceeds `threshold` over a window."""
    return Echo(
        tool="set_alert",
        received={
            "metric": metric,
            "threshold": threshold,
            "window_seconds": window_seconds,
            "severity": severity,
        },
    )


@server.tool()
def tag_issues(issue_ids: list[StrictInt], label: StrictStr) -> Echo:
    """Add a label to several issues."""
    return Echo(tool="tag_issues", received={"issue_ids": issue_ids, "label": label})


@server.tool()
def create_ticket(ticket: Ticket) -> Echo:
    """Open a ticket."""
    return Echo(tool="create_ticket", received={"ticket": ticket.model_dump()})


@server.tool()
def query_rows(table: StrictStr, min_id: StrictInt, limit: StrictInt) -> RowSet:
    """Rows of `table` with id >= min_id, at most `limit` of them."""
    rows = [row for row in USERS if row[0] >= min_id][:limit]
    return RowSet(
        query=Query(table=table, min_id=min_id, limit=limit),
        columns=["id", "name", "score"],
        rows=rows,
    )


if __name__ == "__main__":
    server.run()
