// One jest run covers unit, integration and end-to-end tests of every package.
// TypeScript is compiled by swc into ES modules (the runtime itself runs .ts natively on Node 24).
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
    module: { type: 'es6' },
  },
];

const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  testPathIgnorePatterns: ['/node_modules/'],
};
const packages = '<rootDir>/{libs,services,gateway,proto,bench,e2e,scripts,deploy}/**';

export default {
  testTimeout: 60_000,
  maxWorkers: 2,
  projects: [
    {
      // Plain objects and fakes only: runs without PostgreSQL or Kafka (`--selectProjects unit`).
      ...shared,
      displayName: 'unit',
      testMatch: [`${packages}/*.test.ts`],
      testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '\\.(int|e2e)\\.test\\.ts$'],
    },
    {
      // Real PostgreSQL and Kafka, started once for the run by the global setup.
      ...shared,
      displayName: 'integration',
      testMatch: [`${packages}/*.int.test.ts`, `${packages}/*.e2e.test.ts`],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
    },
  ],
};
