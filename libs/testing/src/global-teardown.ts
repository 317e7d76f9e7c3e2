export default async function globalTeardown(): Promise<void> {
  const infrastructure = globalThis.platformTestInfrastructure;
  await infrastructure?.broker?.stop();
  await infrastructure?.postgres.stop();
}
