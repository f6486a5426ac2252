// Which ad the site shows where several compete for one place (ad.find answers them heaviest first,
// weight 0 left out): one drawn at random in proportion to its weight. A rendered page is kept in the
// page cache until the event changes, so the draw holds for that page's life, not for each visitor.

export interface Weighted {
  readonly weight: string;
}

/** One of `ads`, each as likely as its weight; `random` in [0, 1). Undefined when there is none to show. */
export function pickAd<T extends Weighted>(ads: readonly T[], random: number = Math.random()): T | undefined {
  const weights = ads.map((a) => Math.max(0, Number(a.weight) || 0));
  const sum = weights.reduce((n, w) => n + w, 0);
  if (sum === 0) return undefined;
  let at = random * sum;
  for (let i = 0; i < ads.length; i++) {
    if (at < weights[i]) return ads[i];
    at -= weights[i];
  }
  return ads.findLast((_, i) => weights[i] > 0);
}
