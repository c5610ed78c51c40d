/**
 * Host lists in random order, a helper of its own (no imports) for the connect string's hosts, DNS SRV records
 * of equal weight and new host lists alike.
 */

/** A copy of `hosts` in random order (Fisher-Yates), so that clients spread over the ensemble. */
export function shuffled<T>(hosts: readonly T[], random: () => number = Math.random): T[] {
  const out = hosts.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
