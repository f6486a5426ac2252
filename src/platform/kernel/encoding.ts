// Content negotiation for answers: the site's and the platform's are one, in src/shared (the site may
// not import the platform); re-exported here for the platform's importers.
export { notModified, preferredEncoding, takes, type Encoding } from '../../shared/encoding.ts';
