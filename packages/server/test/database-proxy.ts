/**
 * A TCP proxy in front of the test PostgreSQL that a test cuts and restores: a
 * database going away and coming back for the connections that go through it,
 * as an external PostgreSQL restarted does, while the test's own connections
 * (straight to the server) keep working.
 *
 * `cut()` resets every connection through it (a query in flight fails with
 * "Connection terminated unexpectedly") and stops listening (a new connection
 * is refused, ECONNREFUSED); `restore()` listens again on the same port. Both
 * are what `isDatabaseGone` (`src/db/client.ts`) knows.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface DatabaseProxy {
  /** `url` (a database of the proxied server) with the proxy's host and port. */
  through(url: string): string;
  /** The database goes away: open connections reset, new ones refused. */
  cut(): Promise<void>;
  /** The database is back on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to the PostgreSQL server of `serverUrl` on a free port of 127.0.0.1. */
export async function startDatabaseProxy(serverUrl: string): Promise<DatabaseProxy> {
  const target = new URL(serverUrl);
  // The embedded server's URL names its Unix-domain socket's folder (`%2Ftmp`) or a TCP host.
  const host = decodeURIComponent(target.hostname);
  const targetPort = Number(target.port || 5432);
  const upstreamAt = host.startsWith('/') ? { path: `${host}/.s.PGSQL.${targetPort}` } : { host, port: targetPort };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(upstreamAt);
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as { port: number }).port;
  let listening = true;

  const cut = async () => {
    if (!listening) return;
    listening = false;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  return {
    through(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut,
    async restore() {
      if (listening) return;
      await listen(port);
      listening = true;
    },
    close: cut,
  };
}
