import { escapeHtml } from './compose.ts';

// Merge fields of custom e-mails: {{name}} is replaced by the recipient's value, looked up in a plain
// map — never evaluated, so a field cannot run code or reach anything but these values. Unknown fields
// stay as written. In HTML the values are escaped; in the subject they are one line.

export const MERGE_FIELDS = [
  'firstName', 'lastName', 'name', 'email', 'eventName', 'eventLink', 'qrCode', 'unsubscribeLink',
] as const; // prettier-ignore
export type MergeValues = Readonly<Record<(typeof MERGE_FIELDS)[number], string>>;

const FIELD = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

export function merge(template: string, values: MergeValues, html: boolean): string {
  return template.replace(FIELD, (whole, name: string) => {
    if (!Object.hasOwn(values, name)) return whole;
    const v = values[name as keyof MergeValues];
    return html ? escapeHtml(v) : v;
  });
}
