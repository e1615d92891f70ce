/**
 * MMA calls beyond the reads of `fleet.ts` (spec 3 §2.7, §7 MMA; DESIGN §12):
 * the instances list and editing a class with its instance. The remote MMAs'
 * registration and credentials are `mma-agents.ts`.
 */
import { z } from 'zod';
import { ZChangeWindows } from './change-windows.js';
import { ZMmaInstanceMode, ZMmaInstanceState } from './fleet.js';

/** Width of the Edit MMA Class dialog, px (spec 3 §9). */
export const MMA_CLASS_DIALOG_WIDTH = 600;

/**
 * `GET /mma/instances`: one MMA instance per class (DESIGN §12), with its MMA
 * class. MMA classes are fleet-wide reference data, listed to every user (the
 * Customer Production class too: spec 3 §2.7 shows it and hides only its edit
 * button); DESIGN §5 hides that class's accounts and machines, not the class.
 */
export const ZMmaInstance = z.object({
  id: z.number().int(),
  mmaClassId: z.number().int(),
  mmaClassName: z.string(),
  ...ZMmaInstanceState.shape,
});
export type TMmaInstance = z.infer<typeof ZMmaInstance>;
export const ZMmaInstancesResponse = z.array(ZMmaInstance);

/** A host name (the CAA target machine): dot-separated labels of letters, digits and inner hyphens, as DNS allows. */
export const HOST_NAME_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
export const HOST_NAME_MESSAGE = 'Must be a host name: letters, digits, hyphens and dots';

/**
 * `PUT /mma/classes/{id}` (spec 3 §7 MMA): name, deployerBranch, deployerVersion,
 * standby, priorityGroup, caaHost, `image` (the dialog's Image: a jump-start
 * SaaS image name, or null for none; left out, the image is kept) and
 * `changeWindows` (issue 25 point 5: the whole list, [] for any time; left out,
 * the windows are kept).
 */
export const ZUpdateMmaClassRequest = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100),
  image: z.string().trim().min(1).max(200).nullable().optional(),
  deployerBranch: z.string().trim().max(200).optional(),
  deployerVersion: z.string().trim().min(1, 'Deployer version is required').max(200),
  standby: z.boolean(),
  priorityGroup: z.number().int().min(0).max(1000),
  caaHost: z.string().trim().max(253).regex(HOST_NAME_PATTERN, HOST_NAME_MESSAGE).nullable(),
  changeWindows: ZChangeWindows.optional(),
  /** Issue 27 point 1: simulated (in the worker) or remote (registered MMA processes); left out, kept. */
  mode: ZMmaInstanceMode.optional(),
});
export type TUpdateMmaClassRequest = z.infer<typeof ZUpdateMmaClassRequest>;
