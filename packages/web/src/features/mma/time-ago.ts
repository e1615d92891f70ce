/** "3 days ago" for an ISO time (dayjs relativeTime), or '' for none. */
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

export function timeAgo(iso: string | null | undefined): string {
  return iso ? dayjs(iso).fromNow() : '';
}
