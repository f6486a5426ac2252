// A place as one line ("Podium Hall, Rua da Prata 80, Lisboa"), shared by the pages, the attendee's
// page, iCalendar and the platform's confirmation e-mail. Organizers often write the city into the address too: a part the parts before it
// already say is left out, so the city does not read twice ("…, Lisboa, Lisboa").

/** The parts joined with ", ": empty ones left out, and one whose every piece was said already. */
export function placeLine(...parts: (string | undefined)[]): string {
  const said = new Set<string>();
  const line: string[] = [];
  for (const part of parts) {
    const text = part?.trim();
    if (!text) continue;
    const pieces = text.split(',').map((p) => p.trim().toLowerCase());
    if (pieces.every((p) => said.has(p))) continue;
    for (const p of pieces) said.add(p);
    line.push(text);
  }
  return line.join(', ');
}
