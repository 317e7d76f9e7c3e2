import type { EventEnvelope } from './envelope.ts';

/** A generated (ts-proto) message: how an event's data is written to and read from JSON. */
export interface EventMessage<Data> {
  toJSON(data: Data): unknown;
  fromJSON(json: unknown): Data;
}

/** What `recordEvent` writes to the outbox, less the actor. */
export interface OutgoingEvent {
  topic: string;
  type: string;
  aggregateId: string | number;
  data: Record<string, unknown>;
}

/** One event type: its name, its topic and its data's message, for producers and consumers alike. */
export interface EventDefinition<Data> {
  readonly type: string;
  readonly topic: string;
  /** The event with `data` encoded, keyed by `aggregateId` (events of one aggregate stay in order). */
  event(options: { aggregateId: string | number; data: Data }): OutgoingEvent;
  /** The data of an envelope of this type. */
  decode(envelope: EventEnvelope): Data;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Declares an event once: `defineEvent('identity.user.created', UserCreated, { topic })`. The
 * type follows `<service>.<entity>.<past-tense>`.
 */
export function defineEvent<Data>(type: string, message: EventMessage<Data>, options: { topic: string }): EventDefinition<Data> {
  return {
    type,
    topic: options.topic,
    event({ aggregateId, data }) {
      const json = message.toJSON(data);
      if (!isRecord(json)) throw new Error(`${type}: its message does not encode to a JSON object`);
      return { topic: options.topic, type, aggregateId, data: json };
    },
    decode(envelope) {
      if (envelope.type !== type) throw new Error(`expected a ${type} event, got ${envelope.type}`);
      return message.fromJSON(envelope.data);
    },
  };
}

/** Handles one event type, with its data decoded; a consumer's handler answers `Promise<void>`. */
export interface EventHandler<Result = Promise<void>> {
  type: string;
  topic: string;
  handle(envelope: EventEnvelope): Result;
}

export function onEvent<Data, Result>(
  definition: EventDefinition<Data>,
  handle: (data: Data, envelope: EventEnvelope) => Result,
): EventHandler<Result> {
  return {
    type: definition.type,
    topic: definition.topic,
    handle: (envelope) => handle(definition.decode(envelope), envelope),
  };
}
