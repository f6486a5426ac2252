import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { MAX_BODY, plain } from './text.ts';

// The search index's documents (docs/api/search.md): one per object of an event that event.search
// finds, built from the object's row. `title` is what a hit is called, `body` the text its snippet is
// cut from, `more` text that is found but never shown (an attendee's e-mail), `scope` the words the
// platform filters by and never a person's query: the event (`e42`), the type, the object's key
// (`activity17`; an attendee's is `person9` with its event) and, for comments, their session (`a17`)
// and who may see them (`approved`, or `waiting` and the author `p9`).

export const SEARCH_TYPES = ['activity', 'speaker', 'sponsor', 'section', 'person', 'comment'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export interface SearchDoc {
  /**
   * The document's number: its key (the object's id; an attendee's registration, enrollmentID) times 8
   * plus its type's place in SEARCH_TYPES. FTS5 ranks and pages by it without reading a document's
   * stored text (its rowid); the order of types is `docID % 8`.
   */
  docID: number;
  eventID: number;
  type: SearchType;
  objectID: number;
  title: string;
  body: string;
  more: string;
  scope: string;
}

const join = (...parts: string[]) => plain(parts.filter(Boolean).join(' ')).slice(0, MAX_BODY);

export const eventToken = (eventID: number) => `e${eventID}`;
/** An object's own word: one per document on the platform (an attendee is one per event). */
export const keyToken = (type: SearchType, objectID: number, eventID: number) =>
  type === 'person' ? `person${objectID}e${eventID}` : `${type}${objectID}`;
export const activityToken = (activityID: number) => `a${activityID}`;
export const authorToken = (personID: number) => `p${personID}`;

const doc = (eventID: number, type: SearchType, objectID: number, title: string, body: string, more = '', extra = '', key = objectID): SearchDoc => ({
  docID: key * 8 + SEARCH_TYPES.indexOf(type), eventID, type, objectID, title: title.trim(), body, more,
  scope: `${eventToken(eventID)} ${type} ${keyToken(type, objectID, eventID)}${extra}`,
}); // prettier-ignore

/** Which rows: the objects with these ids, or every object of one event. */
export type Which = { readonly ids: readonly number[] } | { readonly eventID: number };

/** The documents of the objects of one type (attendees: `ids` are personIDs of `eventID`); gone objects have none. */
export async function documentsOf(
  db: Kysely<DB>,
  type: SearchType,
  which: Which,
  eventID?: number,
): Promise<SearchDoc[]> {
  const byIDs = 'ids' in which;
  if (byIDs && which.ids.length === 0) return [];
  switch (type) {
    case 'activity': {
      let q = db.selectFrom('activity').select(['activityID', 'eventID', 'name', 'description', 'location']);
      q = byIDs ? q.where('activityID', 'in', which.ids) : q.where('eventID', '=', which.eventID);
      return (await q.execute()).map((r) =>
        doc(r.eventID, type, r.activityID, r.name, join(r.location, r.description)),
      );
    }
    case 'speaker': {
      let q = db.selectFrom('speaker').select(['speakerID', 'eventID', 'name', 'headline', 'category', 'description']);
      q = byIDs ? q.where('speakerID', 'in', which.ids) : q.where('eventID', '=', which.eventID);
      return (await q.execute()).map((r) =>
        doc(r.eventID, type, r.speakerID, r.name, join(r.headline, r.category, r.description)),
      );
    }
    case 'sponsor': {
      let q = db.selectFrom('sponsor').select(['sponsorID', 'eventID', 'name', 'companyName', 'category', 'bio']);
      q = byIDs ? q.where('sponsorID', 'in', which.ids) : q.where('eventID', '=', which.eventID);
      return (await q.execute()).map((r) =>
        doc(r.eventID, type, r.sponsorID, r.companyName || r.name, join(r.name, r.category, r.bio)),
      );
    }
    case 'section': {
      let q = db.selectFrom('hotsite').select(['sectionID', 'eventID', 'name', 'text']);
      q = byIDs ? q.where('sectionID', 'in', which.ids) : q.where('eventID', '=', which.eventID);
      return (await q.execute()).map((r) => doc(r.eventID, type, r.sectionID, r.name, join(r.text)));
    }
    case 'person': {
      // Only what the person gave to this event (its eventPerson row), never their other events' profiles.
      const columns = ['personID', 'enrollmentID', 'eventID', 'name', 'firstName', 'lastName', 'email', 'role', 'company', 'headline', 'city'] as const; // prettier-ignore
      let q = db.selectFrom('eventPerson').select(columns);
      q = byIDs
        ? q.where('eventID', '=', eventID!).where('personID', 'in', which.ids)
        : q.where('eventID', '=', which.eventID);
      return (await q.execute()).map((r) =>
        doc(
          r.eventID,
          type,
          r.personID,
          r.name !== '' ? r.name : `${r.firstName} ${r.lastName}`,
          [r.role, r.company].filter(Boolean).join(', '),
          join(r.firstName, r.lastName, r.email, r.headline, r.city),
          '',
          r.enrollmentID,
        ),
      );
    }
    case 'comment': {
      // Titled by its author at read time (a name can change); found by its text only.
      let q = db.selectFrom('comment').select(['commentID', 'eventID', 'activityID', 'personID', 'text', 'approved']);
      q = byIDs ? q.where('commentID', 'in', which.ids) : q.where('eventID', '=', which.eventID);
      return (await q.execute()).map((r) =>
        doc(r.eventID, type, r.commentID, '', join(r.text), '',
          ` ${activityToken(r.activityID)} ${r.approved === 1 ? 'approved' : `waiting ${authorToken(r.personID)}`}`),
      ); // prettier-ignore
    }
  }
}
