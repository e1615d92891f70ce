/** Placeholder replaced by the demo and scale fleet generator. */
import type { Db } from '../db/client.js';
import type { SecretBox } from '../lib/secret-box.js';

export async function seedFleet(_db: Db, _opts: { kind: 'demo' | 'scale'; secrets: SecretBox }): Promise<void> {}
