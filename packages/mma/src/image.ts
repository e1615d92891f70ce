/**
 * A CreateJumpStartAmi's image (README "Jump-start images"; the server's
 * `modules/mma-protocol/jump-start-image.ts`): once the executor has prepared
 * the machine and ended SUCCESS, the server's cloud images it. The MMA asks
 * for the image (`POST /mma-agent/operations/{id}/image`: made once per
 * operation, so asking again is safe) every {@link IMAGE_POLL_MS} until it is
 * available, then finishes SUCCESS, at which the server registers it as a
 * jump-start image. A refused request (422: no name, an unknown IRMN version,
 * no instance) or an image that ends otherwise than available fails the
 * operation; the run's signal (a cancel, a lost lease, the timeout) stops the
 * wait.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { TMmaClaimedOperation } from '@fleet/contracts';
import type { MmaClient } from './client.js';
import { asFailure, FilesFailure } from './backup-files.js';

/** How often a pending image is asked for again, ms. */
export const IMAGE_POLL_MS = 5_000;

/** Waits for the image of a CreateJumpStartAmi (see the module's comment); throws {@link FilesFailure} when it cannot be made. */
export async function awaitImage(op: TMmaClaimedOperation, client: MmaClient, signal: AbortSignal, output: (line: string) => void, pollMs = IMAGE_POLL_MS): Promise<void> {
  if (op.typeName !== 'CreateJumpStartAmi') return;
  const lease = { operationId: op.operationId, attempt: op.attempt };
  const ask = () =>
    client.image(lease, signal).catch((err: unknown) => {
      throw asFailure(err);
    });
  let image = await ask();
  output(`The server is imaging the machine: ${image.imageId} (${image.status})`);
  while (image.status === 'pending') {
    await sleep(pollMs, undefined, { signal });
    image = await ask();
  }
  if (image.status !== 'available') throw new FilesFailure(`Image ${image.imageId} is ${image.status}`);
  output(`Image ${image.imageId} is available in ${image.region}`);
}
