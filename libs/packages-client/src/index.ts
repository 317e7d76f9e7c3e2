export { packagesEvents, PACKAGES_TOPIC } from './packages-events.ts';
