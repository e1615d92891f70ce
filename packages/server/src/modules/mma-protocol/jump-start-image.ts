/**
 * A remote CreateJumpStartAmi (issue 27 point 2; spec 2 §2.3 Create Jump-start
 * AMI): the MMA prepares the machine with its executor, then asks the server
 * to image it (`POST /mma-agent/operations/{id}/image`), and asks again until
 * the image is available; its SUCCESS then registers the jump-start SaaS image,
 * exactly as the simulated effect does (`engine/operations/agent-effects.ts`:
 * the same params check, the same client token, the same registration).
 *
 * - **Once.** The image is made under the client token `operation-<id>`: every
 *   call (a retry, a resumed attempt) gets the same image, described again.
 *   Its id is checkpointed in the operation's params (`imageId`).
 * - **Finish.** A SUCCESS registers the image when it is available (skipped
 *   when it has a row already, so a repeated finish makes none twice); an
 *   image never asked for, gone, or not yet available turns the SUCCESS into a
 *   FAILURE saying so.
 */
import type { TMmaImage } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { unprocessable } from '../../lib/problem.js';
import type { CloudProvider } from '../../engine/cloud/provider.js';
import { OperationFailure } from '../../engine/operations/effects.js';
import { jumpStartImageRequest, jumpStartParams } from '../../engine/operations/agent-effects.js';
import { insertJumpStartImage, mergeOperationParams, selectCurrentVersions } from '../../engine/operations/agent.repository.js';
import { refusedAsEffectWould } from './backup-files.js';

type ImageOperation = { id: number; attempt: number; typeName: string; params: Record<string, unknown> };

/** The image of the operation's machine, made once (see the module's comment); 422 for what the simulated effect would fail. */
export async function operationImage(
  { db, cloud }: { db: Db; cloud: CloudProvider },
  { operation, machine }: { operation: ImageOperation; machine: { name: string; cloudId: string | null } },
): Promise<TMmaImage> {
  if (operation.typeName !== 'CreateJumpStartAmi') throw unprocessable(`Operation ${operation.id} is a ${operation.typeName}, not a CreateJumpStartAmi: it makes no image`);
  const params = await refusedAsEffectWould(() => jumpStartParams(db, operation.params));
  if (!machine.cloudId) throw unprocessable(`Machine ${machine.name} has no cloud instance`);
  let image = await cloud.createImage(jumpStartImageRequest(operation.id, machine.cloudId, params));
  if (operation.params.imageId !== image.imageId) await mergeOperationParams(db, { operationId: operation.id, attempt: operation.attempt }, { imageId: image.imageId });
  if (image.status === 'pending') image = (await cloud.describeImage(image.imageId)) ?? image;
  return { imageId: image.imageId, status: image.status, region: image.region };
}

/**
 * At a CreateJumpStartAmi's SUCCESS: registers its image as a jump-start SaaS
 * image; answers why the SUCCESS must be a FAILURE instead, or undefined.
 */
export async function registerOperationImage(
  { db, cloud }: { db: Db; cloud: CloudProvider },
  { machineId, params }: { machineId: number; params: Record<string, unknown> },
): Promise<string | undefined> {
  const imageId = typeof params.imageId === 'string' ? params.imageId : undefined;
  if (!imageId) return 'The MMA finished without asking the server for the image (POST /mma-agent/operations/{id}/image)';
  const image = await cloud.describeImage(imageId);
  if (!image) return `Image ${imageId} no longer exists`;
  if (image.status !== 'available') return `Image ${imageId} is ${image.status}: finish once it is available`;
  try {
    const { name, description, irmnVersionId } = await jumpStartParams(db, params);
    const versions = await selectCurrentVersions(db, machineId);
    await insertJumpStartImage(db, { name, description, region: image.region, irmnVersionId, cloudImage: image.imageId, versions });
    return undefined;
  } catch (err) {
    if (err instanceof OperationFailure) return err.message;
    throw err;
  }
}
