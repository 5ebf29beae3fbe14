/**
 * The `leadfinder` command as published on its own (scripts/pack.mjs): the client and admin commands,
 * which need only the SDK, without `serve` (the service stack stays in the repository and its images).
 * Like bin.ts, the only file of the published command that touches the process.
 */
import { runAdminCommand } from './admin.js';
import { runClientCommand } from './client-commands.js';
import { CLIENT_USAGE } from './usage.js';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'admin':
      return runAdminCommand(rest, { stdout: process.stdout, stderr: process.stderr, env: process.env });
    case 'search': case 'runs': case 'show': case 'stop': case 'keys': case 'webhooks':
      return runClientCommand(argv, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
    case '--help': case '-h': case 'help': case undefined:
      process.stdout.write(CLIENT_USAGE + '\n');
      return command === undefined ? 2 : 0;
    case 'serve':
      process.stderr.write('leadfinder: this package is the client only; run the service from its repository (npm start) or image\n');
      return 2;
    default:
      process.stderr.write(`leadfinder: unknown command "${command}"\n${CLIENT_USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`leadfinder: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
