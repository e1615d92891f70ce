/**
 * The `fleet` command line (issue 28 point 4): commander's program with every
 * command, a global `--output table|json`, `--help` on each command, and
 * usage errors that throw (exit 2 in `main.ts`) instead of exiting.
 */
import { Command, Option } from 'commander';
import { OUTPUT_FORMATS } from './output.js';
import { addSessionCommands } from './commands/session.js';
import { addFleetCommands } from './commands/fleet.js';
import { addRolloutCommands } from './commands/rollouts.js';
import { addUsersCommand } from './commands/users.js';

/** A fresh program (one per run; the tests make several). */
export function buildProgram(): Command {
  const program = new Command('fleet')
    .description('Fleet Console from the command line: sign in once (fleet login), then every action of the console')
    .addOption(new Option('-o, --output <format>', 'how results print').choices(OUTPUT_FORMATS).default('table'))
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  addSessionCommands(program);
  addFleetCommands(program);
  addRolloutCommands(program);
  addUsersCommand(program);
  return program;
}
