/**
 * Splits `total` into non-negative integers proportional to `weights` that add up to exactly `total`
 * (the largest remainder method; ties go to the earlier index, so the split is deterministic). This is how
 * every cross-dataset sum in the simulator is made to hold exactly.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  if (!Number.isInteger(total) || total < 0) throw new RangeError(`cannot apportion ${total}`);
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total === 0) return weights.map(() => 0);
  if (!(sum > 0) || weights.some((w) => !(w >= 0))) throw new RangeError('apportion needs positive weights');
  const quotas = weights.map((w) => (total * w) / sum);
  const shares = quotas.map(Math.floor);
  let left = total - shares.reduce((a, b) => a + b, 0);
  const byRemainder = quotas
    .map((q, i) => ({ i, remainder: q - Math.floor(q) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    shares[i] = (shares[i] ?? 0) + 1;
    left--;
  }
  return shares;
}
