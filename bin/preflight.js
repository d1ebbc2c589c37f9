#!/usr/bin/env node
// `preflight mcp` starts the MCP door (tools/), everything else is the CLI (src/): the service never imports a door.
if (process.argv[2] === 'mcp') await import('../dist/tools/stdio.js');
else await import('../dist/src/cli.js');
