import { Rng } from "../engine/random";

/**
 * A deterministic stream for one referee decision (a seat's seed tile), keyed by the field
 * seed and a label such as the join count. The referee runs synchronously, so instead of
 * SHA-256 it derives sfc32's four state words from the label with an integer string hash
 * (cyrb128: four interleaved multiply–xor lanes over the UTF-16 code units).
 */
export function refereeRng(seed: string, label: string): Rng {
  const [a, b, c, d] = cyrb128(`mosaic-referee|${seed}|${label}`);
  return new Rng(a, b, c, d);
}

export function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
