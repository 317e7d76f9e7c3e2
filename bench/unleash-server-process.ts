/**
 * Unleash's own server in a process of its own (as each of the platform's services runs), for
 * `bench/unleash-clients.ts`: open admin API (no authentication), client API by one client token
 * for the `production` environment. Settings (environment): DATABASE_URL, PORT, CLIENT_TOKEN.
 * Its rate limits (by default 6,000 registrations and metrics posts and 20,000 SDK calls a
 * minute) are lifted, so that what it holds is what it can serve: the platform has none on them.
 */
import { ApiTokenType, LogLevel, start, type IUnleashOptions } from 'unleash-server';

/** Unleash's `IAuthType.NONE`, an enum its package entry point does not export. */
const NO_AUTHENTICATION = 'none' as NonNullable<IUnleashOptions['authentication']>['type'];

const environment = 'production';
const UNLIMITED = 100_000_000;

await start({
  databaseUrl: process.env.DATABASE_URL ?? '',
  db: { ssl: false },
  server: { host: '127.0.0.1', port: Number(process.env.PORT) },
  authentication: {
    type: NO_AUTHENTICATION,
    enableApiToken: true,
    initApiTokens: [
      { tokenName: 'bench', type: ApiTokenType.CLIENT, environment, projects: ['*'], secret: process.env.CLIENT_TOKEN ?? '' },
    ],
  },
  rateLimiting: { sdkApiMaxPerMinute: UNLIMITED, tokenAuthenticationMaxPerMinute: UNLIMITED },
  metricsRateLimiting: {
    clientMetricsMaxPerMinute: UNLIMITED,
    clientRegisterMaxPerMinute: UNLIMITED,
    frontendMetricsMaxPerMinute: UNLIMITED,
    frontendRegisterMaxPerMinute: UNLIMITED,
  },
  versionCheck: { enable: false },
  logLevel: LogLevel.warn,
});
