import { adminEvents } from '@platform/admin-client';
import type { OutgoingEvent } from '@platform/events';
import type { CiVariable as VariableData } from '@platform/proto/admin/v1/events';
import type { CiVariable, VariableOwner } from './ci-variable.entity.ts';

/** What events say of a variable: everything but its value, with the group or project it belongs to. */
const variableData = (variable: CiVariable, owner: VariableOwner): VariableData => ({
  key: variable.key,
  variableType: variable.variableType,
  protected: variable.protected,
  masked: variable.masked,
  raw: variable.raw,
  id: variable.id,
  environmentScope: variable.environmentScope,
  owner: owner.type === 'instance' ? undefined : { type: owner.type, id: owner.id, fullPath: owner.fullPath ?? '' },
});

export const variableCreated = (variable: CiVariable, owner: VariableOwner): OutgoingEvent =>
  adminEvents.ciVariableCreated.event({ aggregateId: variable.key, data: { variable: variableData(variable, owner) } });

export const variableDeleted = (variable: CiVariable, owner: VariableOwner): OutgoingEvent =>
  adminEvents.ciVariableDeleted.event({ aggregateId: variable.key, data: { variable: variableData(variable, owner) } });

/** One event per changed attribute; a value's change says only that it changed. */
export const variableUpdated = (
  variable: CiVariable,
  options: { owner: VariableOwner; change: { attribute: string; from: string; to: string } },
): OutgoingEvent =>
  adminEvents.ciVariableUpdated.event({
    aggregateId: variable.key,
    data: { variable: variableData(variable, options.owner), ...options.change },
  });
