/**
 * What a notification says (issue 28 point 3): a title naming what happened, a
 * line of detail, and the console page of what it is about under `PUBLIC_URL`
 * (hash routes: `#/rollouts/<id>`, `#/operations/<id>`, `#/account/edit/<id>`,
 * `#/mma`, `#/viewer/issues?machine=<id>`, `#/notifications` for a test).
 * Names come from the rows as they are when the message is sent; a row deleted
 * since is named by its id.
 */
import { NOTIFICATION_EVENT_LABELS, type TNotificationEventKind } from '@fleet/contracts';
import type { ClaimedDelivery } from './delivery.repository.js';

export interface NotificationMessage {
  /** One line: what happened, to what. */
  title: string;
  /** Further detail (a halt's reason, an issue's description); may be empty. */
  text: string;
  /** The console page of what it is about, absolute. */
  url: string;
}

/** The message of a claimed delivery; `publicUrl` without its trailing slash. */
export function messageOf(d: ClaimedDelivery, publicUrl: string): NotificationMessage {
  const page = (hash: string) => `${publicUrl}/#/${hash}`;
  const machine = `${d.machineName ?? `machine ${d.machineId}`}${d.accountName ? ` of ${d.accountName}` : ''}`;
  switch (d.kind as TNotificationEventKind | 'Test') {
    case 'RolloutHalted':
      return { title: `Rollout ${d.rolloutId} halted`, text: d.rolloutReason ?? '', url: page(`rollouts/${d.rolloutId}`) };
    case 'RolloutCompleted':
      return { title: `Rollout ${d.rolloutId} completed`, text: '', url: page(`rollouts/${d.rolloutId}`) };
    case 'RolloutAwaitingApproval':
      return { title: `Rollout ${d.rolloutId}: wave ${(d.wave ?? 0) + 1} is waiting for approval`, text: 'Approve or reject the wave on the rollout page.', url: page(`rollouts/${d.rolloutId}`) };
    case 'OperationPendingApproval':
      return { title: `Operation ${d.operationType ?? d.operationId} on ${machine} is waiting for approval`, text: 'Proceed or cancel it on the operation page.', url: page(`operations/${d.operationId}`) };
    case 'MachinePanic':
      return { title: `Machine ${machine} is in Panic`, text: 'Its operations failed repeatedly: it needs an admin.', url: page(`account/edit/${d.accountId}`) };
    case 'ClassStandby':
      return { title: `MMA class ${d.className ?? d.classId} switched to standby`, text: 'No operation of the class starts until standby is switched off.', url: page('mma') };
    case 'IssueOpened':
      return { title: `Issue ${d.reopened ? 'reopened' : 'opened'} on ${machine}`, text: d.issueDescription ?? '', url: page(`viewer/issues?machine=${d.machineId}`) };
    case 'Test':
      return { title: 'Test message from Fleet Console', text: `Sent by 'Send test message' to the channel ${d.channelName}.`, url: page('notifications') };
    default:
      return { title: NOTIFICATION_EVENT_LABELS[d.kind as TNotificationEventKind] ?? d.kind, text: '', url: page('') };
  }
}
