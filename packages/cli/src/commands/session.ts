/**
 * `fleet login`, `fleet logout`, `fleet whoami` (issue 28 point 4): a session
 * of the command line is a console access token (`POST /auth/login`) kept in
 * the user's config folder (`credentials.ts`). The password comes from
 * `--password-stdin`, else `FLEET_PASSWORD`, else a hidden prompt on a
 * terminal.
 */
import type { Command } from 'commander';
import { clientFor, CliError, data, EXIT, signedIn } from '../client.js';
import { removeCredentials, writeCredentials } from '../credentials.js';
import { out, printRecord } from '../output.js';
import { formatOf } from './shared.js';

/** Reads all of stdin (`--password-stdin`), without its last line break. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** Asks for the password on the terminal without echoing it. */
async function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) throw new CliError('No password: give it with --password-stdin or FLEET_PASSWORD', EXIT.usage);
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  let typed = '';
  try {
    for await (const chunk of stdin) {
      for (const ch of String(chunk)) {
        if (ch === '\u0003') throw new CliError('Cancelled', EXIT.usage); // Ctrl-C
        if (ch === '\r' || ch === '\n') return typed;
        typed = ch === '\u007f' ? typed.slice(0, -1) : typed + ch;
      }
    }
    return typed;
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    process.stderr.write('\n');
  }
}

/** The server URL without its trailing slash; a bad command line when it is not http(s). */
function serverUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`'${value}' is not a URL (such as http://localhost:3000)`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`'${value}' is not an http(s) URL`, EXIT.usage);
  return value.replace(/\/+$/, '');
}

export function addSessionCommands(program: Command): void {
  program
    .command('login')
    .description('Sign in to a Fleet Console server and keep the session in your config folder (mode 0600)')
    .option('--server <url>', 'the console URL', process.env.FLEET_SERVER ?? 'http://localhost:3000')
    .requiredOption('--username <name>', 'your user name')
    .option('--password-stdin', 'read the password from stdin (else FLEET_PASSWORD, else a prompt)')
    .action(async (opts: { server: string; username: string; passwordStdin?: boolean }) => {
      const server = serverUrl(opts.server);
      const password = opts.passwordStdin ? await readStdin() : (process.env.FLEET_PASSWORD ?? (await promptHidden('Password: ')));
      const login = await data(clientFor(server).POST('/api/v1/auth/login', { body: { username: opts.username, password } })).catch((err: unknown) => {
        // A refused sign-in is a 401 like an ended session: say what it is.
        if (err instanceof CliError && err.exitCode === EXIT.signIn) throw new CliError(err.message.split('\n')[0]!, EXIT.signIn);
        throw err;
      });
      const file = await writeCredentials({ server, username: opts.username, token: login.accessToken.token, expiresAt: login.accessToken.expiresAt });
      process.stderr.write(`Signed in to ${server} as ${opts.username} until ${login.accessToken.expiresAt} (session kept in ${file})\n`);
    });

  program
    .command('logout')
    .description('Sign out: revoke the session on the server and forget it')
    .action(async () => {
      const { client } = await signedIn();
      // An already ended session is signed out all the same.
      await data(client.POST('/api/v1/auth/logout')).catch((err: unknown) => {
        if (!(err instanceof CliError && err.exitCode === EXIT.signIn)) throw err;
      });
      await removeCredentials();
      process.stderr.write('Signed out.\n');
    });

  program
    .command('whoami')
    .description('The signed-in user: name, permissions and groups')
    .action(async (_opts: unknown, command: Command) => {
      const { client, credentials } = await signedIn();
      const me = await data(client.GET('/api/v1/user/me'));
      if (formatOf(command) === 'json') return out(JSON.stringify({ server: credentials.server, ...me }, null, 2));
      printRecord('table', me, [
        { header: 'Server', value: () => credentials.server },
        { header: 'User', value: () => credentials.username },
        { header: 'Name', value: (m) => m.name },
        { header: 'Roles', value: (m) => m.roles.join(', ') },
        { header: 'Permissions', value: (m) => m.permissions.join(', ') },
        { header: 'Groups', value: (m) => m.groups.join(', ') },
      ]);
    });
}
