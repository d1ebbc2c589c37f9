// Command lines of the two door commands (`preflight serve`, `preflight mcp`), with commander as the CLI uses it:
// --help prints the usage and exits 0; a bad option prints why and exits 2.
import { Command, CommanderError, InvalidArgumentError } from 'commander';

export function parseCommand<T>(cmd: Command, args: readonly string[]): T {
  cmd.exitOverride().configureOutput({ writeErr: (s) => process.stderr.write(s) });
  try {
    cmd.parse([...args], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
    throw err;
  }
  return cmd.opts<T & Record<string, unknown>>();
}

export function portNumber(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('needs a port number (0-65535).');
  return port;
}

export const newCommand = (name: string, description: string): Command => new Command(name).description(description).helpOption('-h, --help', 'show this help');

/** A door command that cannot start says why on stderr, after its name, and exits 2. */
export function exitStartFailed(command: string, err: unknown): never {
  process.stderr.write(`${command}: ${(err as Error).message}\n`);
  process.exit(2);
}
