/** GitLab's access levels. Owner exists for groups (and personal project owners) only. */
export const ACCESS_LEVELS = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;

export const NO_ACCESS = 0;
export const GROUP_ACCESS_LEVELS: readonly number[] = [10, 20, 30, 40, 50];
export const PROJECT_ACCESS_LEVELS: readonly number[] = [10, 20, 30, 40];
