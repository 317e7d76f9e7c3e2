// Usage:
//   node libs/devstack/src/kafka-cli.ts fetch              # ensure the jars are cached (CI warm-up); prints the lib dir
//   node libs/devstack/src/kafka-cli.ts start [dataDir]    # run a broker until Ctrl+C (dataDir persists if given)
import { ensureKafkaJars, startKafkaBroker } from './kafka-broker.ts';

const [command, dataDir] = process.argv.slice(2);

if (command === 'fetch') {
  process.stdout.write(`${await ensureKafkaJars()}\n`);
} else if (command === 'start') {
  const broker = await startKafkaBroker({ dataDir, port: 9092, controllerPort: 9093, log: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`Kafka ready on ${broker.brokers.join(',')} (pid ${broker.pid}); Ctrl+C to stop\n`);
  // Handle the signals ourselves so the broker gets a clean SIGTERM shutdown before we exit.
  const shutdown = () => void broker.stop().then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
} else {
  process.stderr.write('usage: kafka-cli.ts fetch | start [dataDir]\n');
  process.exit(2);
}
