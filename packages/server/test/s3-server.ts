/**
 * An S3-compatible server for tests: s3rver (npm) in a child process on a free
 * loopback port, with one empty bucket, its files in a temporary folder removed
 * on close. See `s3-server-process.mjs` for why it runs in its own process.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  bucket: string;
  /** s3rver accepts any signature from these. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

/** Starts the server; rejects if it does not listen within 30 s. */
export async function startS3TestServer(bucket = 'fleet-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'fleet-s3rver-'));
  const script = new URL('./s3-server-process.mjs', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--openssl-legacy-provider', script, JSON.stringify({ directory, bucket })], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('s3rver did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
