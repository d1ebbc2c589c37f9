#!/usr/bin/env node
// `preflight mcp` starts the MCP door (tools/), `preflight serve` the REST door (http/), everything else is the CLI
// (src/): the service never imports a door.
const command = process.argv[2];
if (command === 'mcp') await import('../dist/tools/stdio.js');
else if (command === 'serve') await import('../dist/http/main.js');
else await import('../dist/src/cli.js');
