// The typed client of the platform API (server side; the site's only way to the platform).
export { PodiumClient, createClient, fingerprint } from './client.ts';
export type { CallContext, ClientOptions, Dependency, Follow, Grant, LinkRequest, Reachability } from './client.ts';
export { ChangeFollower, type FollowEvent, type FollowOptions } from './follow.ts';
export { PodiumError, isForbidden, isNotFound, isPodiumError, isUnreachable } from './errors.ts';
export type * from './schemas.ts';
