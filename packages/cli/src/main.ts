/**
 * `fleet` (`packages/cli/bin/fleet.mjs`; `npm run fleet -- …`, `npx fleet`):
 * runs one command of {@link buildProgram} and exits with the codes of
 * `client.ts` {@link EXIT}: 0 done, 1 refused by the server, 2 a bad command
 * line, 3 sign in first, 4 server unreachable. Errors go to stderr.
 */
import { CommanderError } from 'commander';
import { CliError, EXIT } from './client.js';
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
  process.exitCode = EXIT.ok;
} catch (err) {
  if (err instanceof CommanderError) {
    // --help and --version end here with 0; commander has printed the usage error.
    process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (err instanceof CliError) {
    process.stderr.write(`fleet: ${err.message}\n`);
    process.exitCode = err.exitCode;
  } else {
    process.stderr.write(`fleet: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = EXIT.refused;
  }
}
