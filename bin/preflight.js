#!/usr/bin/env node
// `preflight mcp` and `preflight serve` start the doors (composed in entry/: the MCP door tools/ and the REST door
// http/ never import each other), everything else is the CLI (src/): the service never imports a door. All three run
// from the bundle (dist/cli/, made by `npm run build`), which starts in a fraction of the time of their modules.
const command = process.argv[2];
if (command === 'mcp') await import('../dist/cli/mcp.js');
else if (command === 'serve') await import('../dist/cli/serve.js');
else await import('../dist/cli/preflight.js');
