/**
 * The MMA screen's rules (spec 3 §2.7, §6, §7 MMA; DESIGN §5, §12):
 *
 * - `instances`: one MMA instance per class, with its class name.
 * - `updateClass`: edits a class (name, image, change windows: issue 25 point 5,
 *   left out they are kept) and its instance (deployer
 *   version and branch, standby, priority group, CAA host) in one transaction
 *   with the audit activity `UpdateMmaClass` (field-level changes of MmaClass and
 *   MmaInstance). 404 unknown class; 403 for class Customer Production without
 *   group CustomerProductionAccess; 422 for an image that is not a jump-start
 *   image, or a class without an instance. A new deployer version or branch
 *   stamps `deployerVerUpdatedAt`. Switching standby off wakes the agents of the
 *   class's machines with queued operations, which then start (the agent's start
 *   rule reads standby; its 5 s pass would also find them). `mode` (issue 27
 *   point 1; left out, kept): 'remote' leaves the class's operations to its
 *   registered MMAs from the next start on (running ones finish where they
 *   run); back to 'simulated' wakes the worker's engine for them, as standby
 *   off does.
 */
import { CLASS_CUSTOMER_PRODUCTION, type TMmaClass, type TMmaInstance, type TUpdateMmaClassRequest } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hasCustomerProductionAccess, type Principal } from '../../auth/principal.js';
import { forbidden, notFound, unprocessable } from '../../lib/problem.js';
import { diffChanges, type AuditService } from '../audit/audit.service.js';
import { mmaClassJson, mmaInstanceJson } from '../fleet/fleet.service.js';
import * as repo from './mma.repository.js';

export interface MmaService {
  instances(): Promise<TMmaInstance[]>;
  /** Edits class `id` and its instance (module docstring); answers the class as `GET /mma/classes` lists it. */
  updateClass(opts: { principal: Principal; id: number; body: TUpdateMmaClassRequest }): Promise<TMmaClass>;
}

export function createMmaService({ db, audit }: { db: Db; audit: AuditService }): MmaService {
  return {
    async instances() {
      const rows = await repo.selectInstances(db);
      return rows.map(({ i, className }) => ({
        id: i.id,
        mmaClassId: i.classId,
        mmaClassName: className,
        ...mmaInstanceJson(i),
      }));
    },

    async updateClass({ principal, id, body }) {
      return db.transaction(async (tx) => {
        const found = await repo.selectClassForUpdate(tx, id);
        if (!found) throw notFound(`MMA class ${id}`);
        if (id === CLASS_CUSTOMER_PRODUCTION && !hasCustomerProductionAccess(principal)) {
          throw forbidden('Editing the Customer Production MMA class needs group CustomerProductionAccess');
        }
        const { c, i } = found;
        if (!i) throw unprocessable(`MMA class ${c.name} has no MMA instance`);
        const image = body.image === undefined ? c.image : body.image;
        if (image !== null && image !== c.image && !(await repo.selectJumpStartImage(tx, image))) {
          throw unprocessable(`Image ${image} is not a jump-start image`);
        }
        const deployerBranch = body.deployerBranch || i.deployerBranch;
        const deployerChanged = body.deployerVersion !== i.deployerVer || deployerBranch !== i.deployerBranch;
        const classValues = { name: body.name, image, changeWindows: body.changeWindows ?? c.changeWindows };
        const instanceValues = {
          deployerVer: body.deployerVersion,
          deployerBranch,
          standby: body.standby,
          priorityGroup: body.priorityGroup,
          caaHost: body.caaHost || null,
          mode: body.mode ?? i.mode,
        };
        const changes = [
          ...diffChanges('MmaClass', { name: c.name, image: c.image, changeWindows: c.changeWindows }, classValues),
          ...diffChanges(
            'MmaInstance',
            { deployerVer: i.deployerVer, deployerBranch: i.deployerBranch, standby: i.standby, priorityGroup: i.priorityGroup, caaHost: i.caaHost, mode: i.mode },
            instanceValues,
          ),
        ];
        const updatedClass = await repo.updateClass(tx, id, classValues);
        const updatedInstance = await repo.updateInstance(tx, id, {
          ...instanceValues,
          deployerVerUpdatedAt: deployerChanged ? new Date() : i.deployerVerUpdatedAt,
        });
        const released =
          (i.standby && !body.standby) || (i.mode === 'remote' && instanceValues.mode === 'simulated') ? await repo.notifyQueuedOfClass(tx, id) : 0;
        await audit.record(tx, {
          action: 'UpdateMmaClass',
          user: principal.username,
          params: { classId: id, name: body.name, ...(released > 0 ? { releasedMachines: released } : {}) },
          changes,
        });
        return mmaClassJson(updatedClass, updatedInstance);
      });
    },
  };
}
