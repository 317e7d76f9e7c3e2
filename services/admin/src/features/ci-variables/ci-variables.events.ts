import { adminEvents } from '@platform/admin-client';
import type { OutgoingEvent } from '@platform/events';
import type { CiVariable as VariableData } from '@platform/proto/admin/v1/events';
import type { CiVariable } from './ci-variable.entity.ts';

/** What events say of a variable: everything but its value. */
const variableData = (variable: CiVariable): VariableData => ({
  key: variable.key,
  variableType: variable.variableType,
  protected: variable.protected,
  masked: variable.masked,
  raw: variable.raw,
});

export const variableCreated = (variable: CiVariable): OutgoingEvent =>
  adminEvents.ciVariableCreated.event({ aggregateId: variable.key, data: { variable: variableData(variable) } });

export const variableDeleted = (variable: CiVariable): OutgoingEvent =>
  adminEvents.ciVariableDeleted.event({ aggregateId: variable.key, data: { variable: variableData(variable) } });

/** One event per changed attribute; a value's change says only that it changed. */
export const variableUpdated = (variable: CiVariable, change: { attribute: string; from: string; to: string }): OutgoingEvent =>
  adminEvents.ciVariableUpdated.event({ aggregateId: variable.key, data: { variable: variableData(variable), ...change } });
