// Builders for the shared-module tests: sessions from ISO times, wire rows as activity.find sends them.

import type { Session } from '../../src/shared/schedule/program.ts';

/** Unix seconds of an ISO instant ('2025-12-21T09:00:00Z' or with an offset). */
export function unix(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad ISO time ${iso}`);
  return ms / 1000;
}

export function session(
  activityID: number,
  location: string,
  begin: string,
  end: string,
  extra: Partial<Session> = {},
): Session {
  return {
    activityID,
    name: `Session ${activityID}`,
    description: '',
    location,
    dateBegin: unix(begin),
    dateEnd: unix(end),
    highlight: false,
    capacity: 0,
    stream: '',
    speakers: [],
    tags: [],
    ...extra,
  };
}
