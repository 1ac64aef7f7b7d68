#!/usr/bin/env bash
# Sets up the Python venv the demo's strict MCP server runs in (.venv at the
# repository root, with the official `mcp` SDK). Reuses the venv when it
# already imports mcp, so `npm start` and CI stay fast after the first run.
# `--retries 0`: where pip finds packages through a local index, an
# unreachable default index must fail fast instead of retrying for minutes.
set -uo pipefail
cd "$(dirname "$0")/../.."
VENV=.venv
PY="${PYTHON:-python3}"
fail() { echo "demo needs: $1" >&2; exit 3; }
# The server imports MCPServer (mcp >= 2) or FastMCP (mcp 1.x).
CHECK='import pydantic
try:
    from mcp.server.mcpserver import MCPServer
except ImportError:
    from mcp.server.fastmcp import FastMCP'

if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "$CHECK" 2>/dev/null; then
  exit 0
fi
command -v "$PY" >/dev/null 2>&1 ||
  fail "Python 3.10+ (e.g. apt install python3 python3-venv, or brew install python), then npm start again"
"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null ||
  fail "Python 3.10+ for the mcp SDK (found $("$PY" --version 2>&1)); set PYTHON=/path/to/python3.10+ and npm start again"
echo "demo: setting up $VENV with the Python mcp SDK (first run only)" >&2
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV" >/dev/null 2>&1 ||
    { rm -rf "$VENV"; fail "Python's venv module (e.g. apt install python3-venv), then npm start again"; }
fi
# pip's own output goes to a log: only its verdict matters here.
"$VENV/bin/python" -m pip install --retries 0 mcp >"$VENV/pip-install.log" 2>&1 ||
  fail "the Python mcp SDK: $VENV/bin/pip install mcp failed (see $VENV/pip-install.log; a package index or network is needed), then npm start again"
"$VENV/bin/python" -c "$CHECK" 2>/dev/null ||
  fail "a working mcp install: rm -rf $VENV && npm start"
