import { z } from 'zod';

const actorSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  ip: z.string().optional(),
  impersonatorId: z.number().int().optional(),
});

/**
 * What travels on Kafka. `type` is `<service>.<entity>.<past-tense>`; `aggregateId` is also the
 * Kafka key, so events of one aggregate stay in order; `traceContext` carries W3C trace headers.
 */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().regex(/^[a-z_]+\.[a-z_]+\.[a-z_]+$/),
  occurredAt: z.iso.datetime(),
  aggregateId: z.string(),
  actor: actorSchema.nullable(),
  data: z.record(z.string(), z.unknown()),
  traceContext: z.record(z.string(), z.string()),
});

export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;
export type EventActor = z.infer<typeof actorSchema>;
