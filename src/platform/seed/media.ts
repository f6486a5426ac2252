// The demo's pictures: a portrait for most speakers and a logo for every sponsor, drawn as small SVGs
// (300-600 bytes each) from the names the seed uses, and served by the platform under MEDIA_PATH. The
// platform serves them, not the site: the seed stores absolute addresses (speaker.image, sponsor.logo
// are http(s) URLs), and the same addresses must work wherever the data is shown — the site on its own
// host or an event's custom domain, and the widgets on an organizer's page. Nothing is downloaded.

import type { Answer } from '../kernel/dispatch.ts';

/** Where the platform serves the demo's pictures. */
export const MEDIA_PATH = '/media/demo';

/** Speakers whose position is a multiple of this have no photo: the site shows their initials. */
export const NO_PHOTO_EVERY = 5;

export const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const BACKGROUNDS = ['#e0e7ff', '#ccfbf1', '#fce7f3', '#fef3c7', '#dbeafe', '#dcfce7', '#ede9fe', '#ffe4e6'];
const CLOTHES = ['#4338ca', '#0f766e', '#be185d', '#b45309', '#1d4ed8', '#15803d', '#6d28d9', '#be123c'];
const SKIN = ['#f5d0b5', '#e0ac8a', '#c68863', '#a0694a', '#7a4b32'];
const HAIR = ['#2b1d14', '#5b3a1e', '#a0522d', '#d4a55a', '#3f3f46', '#111827'];

/** A portrait: head, hair and shoulders on a coloured ground, different for each position. */
export function portraitSvg(i: number): string {
  const ground = BACKGROUNDS[i % BACKGROUNDS.length];
  const clothes = CLOTHES[(i * 3) % CLOTHES.length];
  const skin = SKIN[(i * 7) % SKIN.length];
  const hair = HAIR[(i * 5) % HAIR.length];
  // Short or long hair by position: a cap over the head, or a cap and locks to the shoulders.
  const locks = i % 2 === 0 ? `<path d="M29 38a19 19 0 0 1 38 0v16h-6V40H35v14h-6z" fill="${hair}"/>` : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" width="96" height="96">` +
    `<rect width="96" height="96" fill="${ground}"/>` +
    `<path d="M12 96c2-20 17-30 36-30s34 10 36 30z" fill="${clothes}"/>` +
    `<rect x="41" y="52" width="14" height="16" rx="6" fill="${skin}"/>` +
    locks +
    `<circle cx="48" cy="40" r="17" fill="${skin}"/>` +
    `<path d="M31 38a17 17 0 0 1 34 0c-7-7-27-7-34 0z" fill="${hair}"/>` +
    `</svg>`
  );
}

const MARKS = [
  (c: string) => `<circle cx="28" cy="32" r="16" fill="${c}"/>`,
  (c: string) => `<rect x="12" y="16" width="32" height="32" rx="6" fill="${c}"/>`,
  (c: string) => `<path d="M28 14l18 34H10z" fill="${c}"/>`,
  (c: string) => `<path d="M28 12l20 20-20 20L8 32z" fill="${c}"/>`,
];

/** A logo: a coloured mark and the sponsor's name, 160 × 64 as the site places it. */
export function logoSvg(name: string, i: number): string {
  const colour = CLOTHES[(i * 5) % CLOTHES.length];
  // Long names are fitted into the space beside the mark instead of overflowing it.
  const fit = name.length > 10 ? ` textLength="100" lengthAdjust="spacingAndGlyphs"` : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 64" width="160" height="64">` +
    MARKS[i % MARKS.length](colour) +
    `<text x="54" y="38" font-family="system-ui,sans-serif" font-size="15" font-weight="700" fill="#1f2937"${fit}>` +
    `${xml(name)}</text></svg>`
  );
}

export const speakerPhotoPath = (name: string) => `${MEDIA_PATH}/speakers/${slug(name)}.svg`;
export const sponsorLogoPath = (name: string) => `${MEDIA_PATH}/sponsors/${slug(name)}.svg`;

/**
 * Every picture of the demo as the platform answers it, by path: made once at start. Public and the
 * same for everyone, so kept a day by browsers and shared caches.
 */
export function demoMedia(speakers: readonly string[], sponsors: readonly string[]): Map<string, Answer> {
  const answer = (svg: string): Answer => ({
    status: 200,
    type: 'image/svg+xml',
    body: Buffer.from(svg),
    headers: {
      'cache-control': 'public, max-age=86400',
      // An SVG opened on its own is a document of the API's origin: it may run nothing.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'access-control-allow-origin': '*',
    },
  });
  const media = new Map<string, Answer>();
  speakers.forEach((name, i) => media.set(speakerPhotoPath(name), answer(portraitSvg(i))));
  sponsors.forEach((name, i) => media.set(sponsorLogoPath(name), answer(logoSvg(name, i))));
  return media;
}
