/** gcd of two whole numbers of milliseconds (a leaf: metrics.ts and concurrent.ts both use it). */
export function gcdMs(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b > 0) [a, b] = [b, a % b];
  return a;
}
