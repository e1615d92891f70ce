/**
 * Schemas of MMA classes of accounts and machines (spec 1 §9, DESIGN §6); the
 * class ids and names are in `constants.ts`.
 */
import { z } from 'zod';
import { CLASS_IDS } from './constants.js';

export const ZClassId = z.coerce
  .number()
  .int()
  .refine((v) => (CLASS_IDS as readonly number[]).includes(v), 'Unknown class id');

export const ZClassRef = z.object({ id: z.number().int(), name: z.string() });
export type TClassRef = z.infer<typeof ZClassRef>;
