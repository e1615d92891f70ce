// The S3-compatible server of the tests (s3rver, from npm), run by test/s3-server.ts
// in a child process started with --openssl-legacy-provider: s3rver signs its
// list continuation tokens with DES, which Node's default OpenSSL 3 provider
// refuses. Argument: JSON {directory, bucket}. Prints one JSON line {port} once
// listening; stops on SIGTERM or when its parent's stdin closes.
import S3rver from 's3rver';

const { directory, bucket } = JSON.parse(process.argv[2]);
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
const address = await server.run();
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
