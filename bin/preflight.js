#!/usr/bin/env node
// `preflight mcp` and `preflight serve` start the doors (composed in entry/: the MCP door tools/ and the REST door
// http/ never import each other), everything else is the CLI (src/): the service never imports a door. The CLI runs
// from its bundle (dist/cli/, made by `npm run build`), which starts in a fraction of the time of its modules.
const command = process.argv[2];
if (command === 'mcp') await import('../dist/entry/mcp.js');
else if (command === 'serve') await import('../dist/entry/serve.js');
else await import('../dist/cli/preflight.js');
