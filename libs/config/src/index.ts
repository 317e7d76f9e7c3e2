export { loadConfig, ConfigError, booleanFromEnv, listFromEnv } from './load-config.ts';
