import type { Consumer } from 'kafkajs';
import type { Logger } from '@platform/logger';

/** Waits between attempts: doubled after each failed one, up to a few seconds. */
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 5000;

export interface RestartingConsumer {
  /** For the consumer's CRASH listener: kafkajs will not restart it. */
  gaveUp(consumer: Consumer, error: unknown): void;
  /** For its batch listener: it works, so the next failure starts over after the shortest delay. */
  healthy(consumer: Consumer): void;
  /** Whether this is the consumer in use (listeners of a dropped one ignore its events). */
  isCurrent(consumer: Consumer): boolean;
  /** Stops the current consumer and every start-over. */
  stop(): Promise<void>;
}

/**
 * Keeps a kafkajs consumer going whatever the broker does: when it cannot start (the broker is
 * down while the process starts) or kafkajs gives up on it (an error it does not retry, a broker
 * away for longer than its retries), it is dropped and a new one started after a backoff capped
 * at a few seconds. The process keeps serving what does not need Kafka meanwhile, rather than
 * exiting into a crash loop.
 */
export function keepConsumerRunning(options: {
  logger: Logger;
  /** A new consumer for each attempt, with its event listeners (attempt counts from 1). */
  create(attempt: number): Consumer;
  /** Connects, subscribes and runs it. */
  start(consumer: Consumer): Promise<void>;
  /** Told when an attempt is dropped, before the next one (an event feed deletes its group). */
  dropped?(consumer: Consumer, attempt: number): void;
}): RestartingConsumer {
  let stopped = false;
  let attempt = 0;
  let current: Consumer | undefined;
  let delay = FIRST_DELAY_MS;
  let timer: NodeJS.Timeout | undefined;

  const startOver = (consumer: Consumer, error: unknown) => {
    if (stopped || consumer !== current) return;
    current = undefined;
    options.logger.warn({ err: error, attempt, retryInMs: delay }, 'consumer stopped; starting a new one');
    void consumer.disconnect().catch(() => undefined);
    options.dropped?.(consumer, attempt);
    timer = setTimeout(begin, delay);
    delay = Math.min(MAX_DELAY_MS, delay * 2);
  };

  function begin(): void {
    if (stopped) return;
    attempt += 1;
    const consumer = options.create(attempt);
    current = consumer;
    options.start(consumer).then(
      // Stopped while it was starting.
      () => (consumer === current ? undefined : consumer.disconnect().catch(() => undefined)),
      (error: unknown) => startOver(consumer, error),
    );
  }
  begin();

  return {
    gaveUp: startOver,
    healthy(consumer) {
      if (consumer === current) delay = FIRST_DELAY_MS;
    },
    isCurrent: (consumer) => consumer === current,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const consumer = current;
      current = undefined;
      await consumer?.disconnect();
    },
  };
}
