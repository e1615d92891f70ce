/**
 * Schemas of MMA classes of accounts and machines (spec 1 §9, DESIGN §6); the
 * class ids and names are in `constants.ts`.
 */
import { z } from 'zod';
import { CLASS_IDS } from './constants.js';

const UNKNOWN_CLASS = 'Unknown class id';
const isKnownClass = (v: number) => (CLASS_IDS as readonly number[]).includes(v);
/** A whole number in the range of the class ids (stated in the OpenAPI document) that is one of them. */
const classIdOf = (number: z.ZodNumber | z.ZodCoercedNumber) =>
  number
    .int()
    .min(Math.min(...CLASS_IDS), UNKNOWN_CLASS)
    .max(Math.max(...CLASS_IDS), UNKNOWN_CLASS)
    .refine(isKnownClass, UNKNOWN_CLASS);

/** A class id in a query (`classIds=1,2`). */
export const ZClassId = classIdOf(z.coerce.number());
/** A class id in a body (spec 1 §9, DESIGN §6). */
export const ZBodyClassId = classIdOf(z.number());

export const ZClassRef = z.object({ id: z.number().int(), name: z.string() });
export type TClassRef = z.infer<typeof ZClassRef>;
