/**
 * The `leadfinder` command. `serve` runs the service (every role in one process by default, or one role
 * with `--role`); `admin` wraps the admin API; the other commands are the client CLI.
 * This file is the only one that touches the process: argv, exit codes, signals.
 */
import { parseArgs } from 'node:util';
import { CLIENT_USAGE } from './usage.js';

const USAGE = CLIENT_USAGE.replace('usage:\n', 'usage:\n  leadfinder serve [--role all|edge|coordinator|fetcher|filter]\n');

async function serve(argv: string[]): Promise<number> {
  // Loaded here, not at the top: the service stack takes seconds to import and the client commands need none
  // of it. The drivers and roles come after the configuration is read, so a refused one is refused at once.
  const { ConfigError, Role, createLogger, devSignInRefusal, loadConfig, redactCredentials } = await import('@leadfinder/platform');
  const { values, positionals } = parseArgs({ args: argv, options: { role: { type: 'string' } }, allowPositionals: true });
  const roleParse = Role.safeParse(values.role ?? positionals[0] ?? 'all');
  if (!roleParse.success) {
    process.stderr.write(`leadfinder: --role must be one of ${Role.options.join(', ')}\n`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`leadfinder: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  // The role-dependent half of the configuration checks, also before the stack is imported (startService
  // checks it again for its other callers).
  const refusal = devSignInRefusal(config, roleParse.data);
  if (refusal) {
    process.stderr.write(`leadfinder: ${refusal}\n`);
    return 1;
  }
  const logger = createLogger({ level: config.LEADFINDER_LOG_LEVEL, name: `leadfinder-${roleParse.data}` });
  const { StartupError } = await import('./serve/adapters.js');
  const { startService } = await import('./serve/serve.js');
  let service;
  try {
    service = await startService(config, roleParse.data, logger);
  } catch (error) {
    // A driver's message may quote a URL with its password: none reaches the terminal or the log.
    if (error instanceof StartupError || error instanceof ConfigError) {
      process.stderr.write(`leadfinder: ${redactCredentials(error.message)}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`leadfinder: start-up failed: ${redactCredentials(message)}\n`);
    logger.error('start-up failed', { error: redactCredentials(error instanceof Error ? error.stack ?? message : String(error)) });
    return 1;
  }
  if (service.url) process.stderr.write(`leadfinder: listening on ${service.url}\n`);
  return await new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        process.stderr.write(`leadfinder: ${signal} again, exiting now\n`);
        process.exit(130);
      }
      stopping = true;
      logger.info('draining', { signal });
      service.stop().then(() => resolve(0), () => resolve(1));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
    case undefined:
      return serve(rest);
    case 'admin': {
      const { runAdminCommand } = await import('./admin.js');
      return runAdminCommand(rest, { stdout: process.stdout, stderr: process.stderr, env: process.env });
    }
    case 'search': case 'runs': case 'show': case 'stop': case 'keys': case 'webhooks': {
      const { runClientCommand } = await import('./client-commands.js');
      return runClientCommand(argv, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
    }
    case '--help': case '-h': case 'help':
      process.stdout.write(USAGE + '\n');
      return 0;
    default:
      process.stderr.write(`leadfinder: unknown command "${command}"\n${USAGE}\n`);
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
