import { crc32, deflateSync } from 'node:zlib';
import type { AvatarLook } from './seed-data.ts';

/**
 * Draws a simple portrait (head, hair, shoulders, a white coat for doctors) as a real PNG,
 * so the seed's photos are genuine images in R2 without shipping binary files.
 */
export function avatarPng(look: AvatarLook, size = 256): Uint8Array {
  const colours = {
    background: rgb(look.background),
    skin: rgb(look.skin),
    hair: rgb(look.hair),
    clothes: rgb(look.clothes),
    coat: rgb('#fbfdff'),
  };
  const s = size / 256;
  const inEllipse = (x: number, y: number, cx: number, cy: number, rx: number, ry: number) =>
    ((x - cx * s) / (rx * s)) ** 2 + ((y - cy * s) / (ry * s)) ** 2 <= 1;

  const colourAt = (x: number, y: number): [number, number, number] => {
    const body = inEllipse(x, y, 128, 262, 96, 86);
    if (body) {
      if (!look.coat) return colours.clothes;
      // A white coat open in a V over the shirt.
      const v = Math.abs(x - 128 * s) < (y - 176 * s) * 0.45;
      return v ? colours.clothes : colours.coat;
    }
    if (inEllipse(x, y, 128, 168, 22, 30) && y > 150 * s) return colours.skin; // neck
    const head = inEllipse(x, y, 128, 112, 46, 54);
    const hair = inEllipse(x, y, 128, 96, 52, 48) && (y < 88 * s || !head);
    if (hair && y < 130 * s) return colours.hair;
    if (head) return colours.skin;
    return colours.background;
  };

  // 2x2 supersampling for smooth edges; each row starts with PNG filter type 0.
  const row = size * 3 + 1;
  const raw = new Uint8Array(row * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const sum: [number, number, number] = [0, 0, 0];
      for (const [dx, dy] of [
        [0.25, 0.25],
        [0.75, 0.25],
        [0.25, 0.75],
        [0.75, 0.75],
      ] as const) {
        const c = colourAt(x + dx, y + dy);
        sum[0] += c[0];
        sum[1] += c[1];
        sum[2] += c[2];
      }
      for (const [i, total] of sum.entries()) raw[y * row + 1 + x * 3 + i] = Math.round(total / 4);
    }
  }

  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return concat([
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([new TextEncoder().encode(type), data]);
  const out = new Uint8Array(8 + data.length + 4);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(typed, 4);
  view.setUint32(8 + data.length, crc32(typed));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
