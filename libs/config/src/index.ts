export { loadConfig, ConfigError, booleanFromEnv, listFromEnv } from './load-config.ts';
export { platformConfig, serviceConfig, grpcServerConfig, portFromEnv, logLevelFromEnv } from './common-keys.ts';
export type { ServiceConfig } from './common-keys.ts';
export { grpcAddressFromEnv } from './grpc-address.ts';
export { configKeys, setByDeployment } from './config-keys.ts';
export type { ConfigKey, DeploymentNeed } from './config-keys.ts';
