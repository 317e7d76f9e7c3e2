export { packagesEvents, PACKAGES_TOPIC } from './packages-events.ts';
export {
  containerRegistryTagsSource,
  FixedContainerRegistryTags,
  GrpcContainerRegistryTags,
  packagesClientConfig,
} from './container-registry-tags.ts';
export type { ContainerRegistryTags } from './container-registry-tags.ts';
