/**
 * `fleet users …` (issue 28 point 4: the users CLI becomes part of the command
 * line): console users managed in the database itself, not through the API,
 * so that an operator can make the first admin or get back in when no one can
 * sign in (`packages/server/src/cli/users.ts`; `DATABASE_URL`, else the
 * embedded database of `DATA_DIR`).
 */
import type { Command } from 'commander';

export function addUsersCommand(program: Command): void {
  program
    .command('users')
    .description('Manage console users in the database (add, passwd, grant, revoke, disable, enable, list); see fleet users list')
    .argument('<command>', 'add, passwd, grant, revoke, disable, enable or list')
    .argument('[args...]', "the user name and the command's options (--name, --email, --password, --permission, --group)")
    .allowUnknownOption()
    .helpOption(false)
    .action(async (command: string, args: string[]) => {
      const { runUsersCommand } = await import('../../../server/src/cli/users.js');
      await runUsersCommand([command, ...args]);
    });
}
