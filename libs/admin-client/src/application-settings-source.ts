/**
 * The application settings a service acts on (sign-up, default visibilities, key restrictions...),
 * as the admin service holds them: read over gRPC at start, then kept current by the
 * `admin.application_setting.changed` events, which every instance sees (an event feed of its
 * own). While the feed may be missing events (not joined, Kafka away) the settings are re-read
 * every few seconds, so a change reaches every instance within seconds either way.
 */
import { z } from 'zod';
import { setByDeployment } from '@platform/config';
import { createKafka, onEvent, startEventFeed, type EventEnvelope, type EventFeed } from '@platform/events';
import { callUnary, channelState, CLIENT_CHANNEL_OPTIONS, createChannelCredentials, internalClientOptions } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import { AdminServiceClient } from '@platform/proto/admin/v1';
import type { ApplicationSettings } from '@platform/proto/admin/v1/settings';
import { ADMIN_TOPIC, adminEvents } from './admin-events.ts';

export type { ApplicationSettings };

/** What a service acting on the application settings reads from its environment. */
export const adminClientConfig = z.object({
  ADMIN_GRPC_ADDRESS: setByDeployment(z.string().min(1).optional()).describe(
    "the admin service's gRPC address, where the application settings are read at start (then followed through `admin.events`); unset, GitLab's default settings apply and never change",
  ),
});

/** GitLab's defaults, in force until the admin service answered (or where it does not run). */
export const DEFAULT_APPLICATION_SETTINGS: ApplicationSettings = {
  revision: 0,
  signupEnabled: true,
  requireAdminApprovalAfterUserSignup: true,
  defaultProjectVisibility: 'private',
  defaultGroupVisibility: 'private',
  defaultSnippetVisibility: 'private',
  restrictedVisibilityLevels: [],
  defaultProjectsLimit: 100_000,
  rsaKeyRestriction: 0,
  dsaKeyRestriction: 0,
  ecdsaKeyRestriction: 0,
  ed25519KeyRestriction: 0,
  maxImportSize: 50,
  issuesCreateLimit: 0,
  deletionAdjournedPeriod: 0,
  repositoryStoragesWeighted: { default: 100 },
  defaultBranchProtection: 2,
  defaultProjectCreation: 2,
  allowLocalRequestsFromWebHooksAndServices: false,
  allowLocalRequestsFromSystemHooks: true,
  outboundLocalRequestsWhitelist: [],
  dnsRebindingProtectionEnabled: true,
  diffMaxPatchBytes: 204_800,
};

/** The application settings as this instance knows them now. */
export interface ApplicationSettingsSource {
  current(): ApplicationSettings;
}

/** The same settings forever: GitLab's defaults, or what a test sets. */
export class FixedApplicationSettings implements ApplicationSettingsSource {
  #settings: ApplicationSettings;

  constructor(settings: Partial<ApplicationSettings> = {}) {
    this.#settings = { ...DEFAULT_APPLICATION_SETTINGS, ...settings };
  }

  current(): ApplicationSettings {
    return this.#settings;
  }

  /** Changes some settings, as an administrator's change would (tests). */
  set(settings: Partial<ApplicationSettings>): this {
    this.#settings = { ...this.#settings, ...settings, revision: this.#settings.revision + 1 };
    return this;
  }
}

const START_READ_DEADLINE_MS = 2000;
const REFRESH_INTERVAL_MS = 2000;

/** Reads and follows the admin service's settings for one service instance. */
export class AdminSettingsClient implements ApplicationSettingsSource {
  readonly #client: AdminServiceClient;
  readonly #options: { service: string; kafkaBrokers: string[]; topicPrefix: string; logger: Logger };
  #settings = DEFAULT_APPLICATION_SETTINGS;
  #read = false;
  #feed: EventFeed | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: {
    address: string;
    internalSecret: string;
    /** Names this instance's event feed. */
    service: string;
    kafkaBrokers: string[];
    topicPrefix: string;
    logger: Logger;
  }) {
    this.#client = new AdminServiceClient(options.address, createChannelCredentials(), {
      ...CLIENT_CHANNEL_OPTIONS,
      ...internalClientOptions({ internalSecret: options.internalSecret }),
    });
    this.#options = options;
  }

  current(): ApplicationSettings {
    return this.#settings;
  }

  /** Keeps the newer of what it has and what it was told (events and reads may cross). */
  accept(settings: ApplicationSettings | undefined): void {
    if (settings && settings.revision >= this.#settings.revision) this.#settings = settings;
  }

  /** One read over gRPC; failures leave the settings as they were (logged). */
  async refresh(deadlineMs = START_READ_DEADLINE_MS): Promise<void> {
    try {
      const response = await callUnary(this.#client.getApplicationSettings.bind(this.#client), {}, { deadlineMs });
      this.accept(response.settings);
      this.#read = true;
    } catch (error) {
      this.#options.logger.warn({ err: error }, 'application settings not read from the admin service; keeping the last known');
    }
  }

  /** Reads the settings, then follows their events; neither failing stops the service from starting. */
  async start(): Promise<void> {
    await this.refresh();
    void this.#startFeed();
    this.#timer = setInterval(() => {
      if (!this.#read || !this.#feed?.isLive()) void this.refresh();
    }, REFRESH_INTERVAL_MS);
    this.#timer.unref();
  }

  async #startFeed(): Promise<void> {
    const { service, kafkaBrokers, topicPrefix, logger } = this.#options;
    const handler = onEvent(adminEvents.applicationSettingChanged, (data) => this.accept(data.settings));
    try {
      const feed = await startEventFeed({
        kafka: createKafka({ brokers: kafkaBrokers, clientId: `${service}-settings`, logger }),
        topics: [ADMIN_TOPIC],
        topicPrefix,
        name: `${service}.application-settings`,
        logger,
        onEvent: (event: EventEnvelope) => {
          if (event.type === handler.type) handler.handle(event);
        },
      });
      if (this.#stopped) await feed.stop();
      else this.#feed = feed;
    } catch (error) {
      logger.warn({ err: error }, 'application settings events not followed; re-reading them instead');
    }
  }

  channelState(): string {
    return channelState(this.#client);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#feed?.stop();
    this.#client.close();
  }
}

/**
 * The settings source of a service: the admin service's, followed, when `ADMIN_GRPC_ADDRESS` is
 * set; GitLab's defaults otherwise.
 */
export function applicationSettingsSource(options: {
  address: string | undefined;
  internalSecret: string;
  service: string;
  kafkaBrokers: string[];
  topicPrefix: string;
  logger: Logger;
}): ApplicationSettingsSource {
  const { address, ...rest } = options;
  return address ? new AdminSettingsClient({ address, ...rest }) : new FixedApplicationSettings();
}

/** A followed source as a feature of the service runtime: read before the service listens, stopped after it. */
export function applicationSettingsFeature(source: ApplicationSettingsSource) {
  if (!(source instanceof AdminSettingsClient)) return {};
  return {
    start: () => source.start(),
    stop: () => source.stop(),
    // The connection's state, reported (not a readiness condition: the last known settings still apply).
    readinessChecks: { adminChannel: async () => source.channelState() },
  };
}
