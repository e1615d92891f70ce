/**
 * The fleet's commands (issue 28 point 4), each one API call of the console's:
 *
 *   fleet accounts list [--search s] [--class 1,2] [--limit n] [--start n]      GET /accounts
 *   fleet machines list [--account id] [--limit n] [--start n]                  GET /machines
 *   fleet machines start|stop <id>                                             POST /machines/{id}/start|stop
 *   fleet operations list [--machine id] [--account id] [--status s] [--type t] GET /operations
 *   fleet operations queue <machineId> <type...>                               POST /machines/{id}/queue-operations
 *   fleet approvals list                                                       GET /operations?pending=true
 *   fleet approvals proceed|cancel <id...>                                     POST /operations/decisions
 *   fleet activity [--account id] [--user name] [--action a] [--limit n]       GET /user-activities
 *
 * What the server refuses (a viewer's stop, an unknown machine) exits 1 with
 * its problem text.
 */
import { Argument, Option, type Command } from 'commander';
import { AUDIT_ACTIONS } from '@fleet/contracts';
import { data, signedIn } from '../client.js';
import { out, printList } from '../output.js';
import { collectIds, formatOf, parseId, parseIdList, wholeNumber } from './shared.js';

/** The operation types an operator may queue by hand (the API's enum; it refuses the others for a class). */
const OPERATION_TYPES = ['UpdateSoftware', 'Backup', 'RestoreBackup', 'Populate', 'PublishSampleData', 'ReinstallSampleData', 'CreateJumpStartAmi', 'TestLatestCode', 'SmokeTest', 'ApplyConfig'] as const;
type OperationType = (typeof OPERATION_TYPES)[number];

const pageOptions = (command: Command) =>
  command.option('--limit <n>', 'rows at most (1 to 1000)', wholeNumber(1, 1000), 20).option('--start <n>', 'rows to skip', wholeNumber(0), 0);

/** "21-40 of 1,234" under a page of `count` rows from `start`. */
const pageFooter = (start: number, count: number, total: number, capped = false) =>
  count === 0 ? '' : `${start + 1}-${start + count} of ${capped ? 'at least ' : ''}${total.toLocaleString('en-US')}`;

/** An operation as a row: who, what, where, and its state. */
const operationColumns = [
  { header: 'Id', value: (o: OperationRow) => o.id },
  { header: 'Type', value: (o: OperationRow) => o.typeName },
  { header: 'Machine', value: (o: OperationRow) => `${o.machineName} (${o.machineId})` },
  { header: 'Account', value: (o: OperationRow) => o.accountName },
  { header: 'Status', value: (o: OperationRow) => o.status ?? (o.pending ? 'PENDING APPROVAL' : 'QUEUED') },
  { header: 'Queued', value: (o: OperationRow) => o.timestamp },
  { header: 'User', value: (o: OperationRow) => o.user },
  { header: 'Waiting for', value: (o: OperationRow) => o.waiting?.reason ?? '' },
];
interface OperationRow {
  id: number;
  typeName: string;
  machineId: number;
  machineName: string;
  accountName: string;
  status: string | null;
  pending: boolean;
  timestamp: string;
  user: string;
  waiting?: { reason?: string } | null;
}

export function addFleetCommands(program: Command): void {
  const accounts = program.command('accounts').description('Accounts (tenants)');
  pageOptions(
    accounts
      .command('list')
      .description('Accounts, searched and filtered as the accounts list does')
      .option('--search <text>', 'words of the name, URL name, description, customer or creator')
      .option('--class <ids>', 'class ids, comma separated (1 Experimental … 6 On Premise)', (v) => parseIdList(v).join(',')),
  ).action(async (opts: { search?: string; class?: string; limit: number; start: number }, command: Command) => {
    const { client } = await signedIn();
    const page = await data(
      client.GET('/api/v1/accounts', { params: { query: { search: opts.search, classIds: opts.class, limit: opts.limit, startIndex: opts.start } } }),
    );
    printList(
      formatOf(command),
      page,
      page.items,
      [
        { header: 'Id', value: (a) => a.id },
        { header: 'Name', value: (a) => a.name },
        { header: 'Class', value: (a) => a.class.name },
        { header: 'Customer', value: (a) => ('customer' in a ? a.customer : '') },
        { header: 'Machines', value: (a) => ('machineStats' in a ? a.machineStats.machines : '') },
        { header: 'Created', value: (a) => ('creationTime' in a ? a.creationTime : '') },
      ],
      pageFooter(opts.start, page.items.length, page.totalItems),
    );
  });

  const machines = program.command('machines').description('Machines (virtual machines of accounts)');
  pageOptions(machines.command('list').description('Machines you can see, of one account or all').option('--account <id>', 'the account', parseId)).action(
    async (opts: { account?: number; limit: number; start: number }, command: Command) => {
      const { client } = await signedIn();
      const page = await data(client.GET('/api/v1/machines', { params: { query: { accountId: opts.account, limit: opts.limit, startIndex: opts.start } } }));
      printList(
        formatOf(command),
        page,
        page.items,
        [
          { header: 'Id', value: (m) => m.id },
          { header: 'Name', value: (m) => m.name },
          { header: 'Class', value: (m) => m.className },
          { header: 'Instance', value: (m) => m.instance?.status ?? '' },
          { header: 'Needs admin', value: (m) => (m.needsAdmin ? 'yes' : '') },
          { header: 'Managed', value: (m) => (m.managed ? 'yes' : 'no') },
        ],
        pageFooter(opts.start, page.items.length, page.totalItems, 'totalCapped' in page && page.totalCapped === true),
      );
    },
  );
  for (const verb of ['start', 'stop'] as const) {
    machines
      .command(verb)
      .description(verb === 'start' ? 'Queue StartMachine (clears stop and idle)' : 'Queue StopMachine (sets stop)')
      .argument('<id>', 'the machine', parseId)
      .action(async (id: number, _opts: unknown, command: Command) => {
        const { client } = await signedIn();
        const task = await data(client.POST(verb === 'start' ? '/api/v1/machines/{id}/start' : '/api/v1/machines/{id}/stop', { params: { path: { id } } }));
        if (formatOf(command) === 'json') return out(JSON.stringify(task, null, 2));
        out(`Queued ${task.type} task ${task.id} on machine ${id}`);
      });
  }

  const operations = program.command('operations').description('Operations of machines (the MMA runs them)');
  pageOptions(
    operations
      .command('list')
      .description('Operations, newest first')
      .option('--machine <id>', 'of one machine', parseId)
      .option('--account <id>', "of one account's machines", parseId)
      .option('--status <statuses>', 'QUEUED, RUNNING, SUCCESS, FAILURE (comma separated)')
      .addOption(new Option('--type <type>', 'of one type').choices(OPERATION_TYPES)),
  ).action(async (opts: { machine?: number; account?: number; status?: string; type?: OperationType; limit: number; start: number }, command: Command) => {
    const { client } = await signedIn();
    const query = { machineId: opts.machine, accountId: opts.account, status: opts.status, type: opts.type, limit: opts.limit, startIndex: opts.start };
    const page = await data(client.GET('/api/v1/operations', { params: { query } }));
    printList(formatOf(command), page, page.items, operationColumns, pageFooter(opts.start, page.items.length, page.totalItems));
  });
  operations
    .command('queue')
    .description('Queue operations on a machine (types its class lets an operator queue)')
    .argument('<machineId>', 'the machine', parseId)
    .addArgument(new Argument('<type...>', 'operation types').choices(OPERATION_TYPES))
    .action(async (machineId: number, types: OperationType[], _opts: unknown, command: Command) => {
      const { client } = await signedIn();
      const queued = await data(client.POST('/api/v1/machines/{id}/queue-operations', { params: { path: { id: machineId } }, body: { operations: types } }));
      if (formatOf(command) === 'json') return out(JSON.stringify(queued, null, 2));
      out(`Queued on machine ${machineId}: ${types.join(', ')}`);
    });

  const approvals = program.command('approvals').description('Operations waiting for an operator (pending approval)');
  pageOptions(approvals.command('list').description('Operations pending approval, fleet-wide, newest first')).action(
    async (opts: { limit: number; start: number }, command: Command) => {
      const { client } = await signedIn();
      const page = await data(client.GET('/api/v1/operations', { params: { query: { pending: 'true', limit: opts.limit, startIndex: opts.start } } }));
      printList(formatOf(command), page, page.items, operationColumns, pageFooter(opts.start, page.items.length, page.totalItems));
    },
  );
  for (const [verb, decision] of [
    ['proceed', 'PROCEED'],
    ['cancel', 'CANCEL'],
  ] as const) {
    approvals
      .command(verb)
      .description(verb === 'proceed' ? 'Approve operations: they start when their machines allow' : 'Cancel operations waiting for approval')
      .argument('<ids...>', 'operation ids (space or comma separated)')
      .action(async (ids: string[], _opts: unknown, command: Command) => {
        const operationIds = ids.reduce<number[]>((all, v) => collectIds(v, all), []);
        const { client } = await signedIn();
        const answer = await data(client.POST('/api/v1/operations/decisions', { body: { decision, operationIds } }));
        if (formatOf(command) === 'json') return out(JSON.stringify(answer, null, 2));
        out(`${decision === 'PROCEED' ? 'Approved' : 'Cancelled'}: ${operationIds.join(', ')}`);
      });
  }

  program
    .command('activity')
    .description('The audit trail: who changed what, newest first')
    .option('--account <id>', 'of one account', parseId)
    .option('--user <name>', 'of one user')
    .addOption(new Option('--action <action>', 'of one action (such as StopMachine)').choices(AUDIT_ACTIONS))
    .option('--limit <n>', 'entries at most (1 to 100)', wholeNumber(1, 100), 20)
    .action(async (opts: { account?: number; user?: string; action?: (typeof AUDIT_ACTIONS)[number]; limit: number }, command: Command) => {
      const { client } = await signedIn();
      const entries = await data(client.GET('/api/v1/user-activities', { params: { query: { accountId: opts.account, user: opts.user, action: opts.action, limit: opts.limit } } }));
      printList(formatOf(command), entries, entries, [
        { header: 'Id', value: (a) => a.id },
        { header: 'Time', value: (a) => a.time },
        { header: 'User', value: (a) => a.user },
        { header: 'Action', value: (a) => a.action },
        { header: 'Accounts', value: (a) => a.accounts.map((x) => x.name).join(', ') },
        { header: 'Changes', value: (a) => a.metadata.changes.map((c) => `${c.propertyName}: ${JSON.stringify(c.oldValue)} → ${JSON.stringify(c.newValue)}`).join('; ') },
      ]);
    });
}
