// Query strings as URLSearchParams writes them (application/x-www-form-urlencoded), without making one
// for the usual values: numbers, ids, colours and names pass as they are. A page asks for about ten
// such strings per render (the platform's paths, the theme's and the language switcher's addresses).

/** What the form encoding leaves as it is. */
const PLAIN = /^[\w.*-]*$/;

/** `value` as URLSearchParams encodes it. */
export function formValue(value: string): string {
  return PLAIN.test(value) ? value : new URLSearchParams([['', value]]).toString().slice(1);
}

/** `name=value&…` of the pairs whose value is neither undefined nor '', in order, as URLSearchParams writes them. */
export function formQuery(pairs: Record<string, string | number | undefined>): string {
  let qs = '';
  for (const k in pairs) {
    const v = pairs[k];
    if (v === undefined || v === '') continue;
    qs += `${qs ? '&' : ''}${formValue(k)}=${formValue(String(v))}`;
  }
  return qs;
}
