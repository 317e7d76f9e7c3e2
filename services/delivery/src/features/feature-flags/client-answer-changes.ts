/**
 * Tells this replica, once a change has committed, that what a project's Unleash clients are
 * answered changed (its flags, strategies, user lists or instance id). Other replicas learn it
 * from the change's event; this replica must not wait for it, so that the request making the
 * change answers only once every poll after it sees the change.
 */
export class ClientAnswerChanges {
  readonly #listeners: Array<(projectId: number) => void> = [];

  onChange(listener: (projectId: number) => void): void {
    this.#listeners.push(listener);
  }

  changed(projectId: number): void {
    for (const listener of this.#listeners) listener(projectId);
  }
}
