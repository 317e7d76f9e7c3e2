// Usage:
//   node libs/devstack/src/kafka-cli.ts fetch              # ensure the jars are cached (CI warm-up); prints the lib dir
//   node libs/devstack/src/kafka-cli.ts start [dataDir]    # run a broker until Ctrl+C (dataDir persists if given)
import { ensureKafkaJars, startKafkaBroker } from './kafka-broker.ts';

const [command, dataDir] = process.argv.slice(2);

if (command === 'fetch') {
  console.log(await ensureKafkaJars());
} else if (command === 'start') {
  const broker = await startKafkaBroker({ dataDir, port: 9092, controllerPort: 9093, log: (line) => console.error(line) });
  console.log(`Kafka ready on ${broker.brokers.join(',')} (pid ${broker.pid}); Ctrl+C to stop`);
  // Handle the signals ourselves so the broker gets a clean SIGTERM shutdown before we exit.
  const shutdown = () => void broker.stop().then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
} else {
  console.error('usage: kafka-cli.ts fetch | start [dataDir]');
  process.exit(2);
}
